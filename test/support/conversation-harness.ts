import { BuiltinDialogue } from '../../src/conversations/dialogue/builtin-dialogue';
import type { AudioTransport } from '../../src/conversations';
import type { ConversationAgent, Dialogue } from '../../src/conversations/dialogue/dialogue';
import { EmbeddedRecognizer } from '../../src/conversations/engines/embedded/embedded-recognizer';
import { EmbeddedSynthesizer } from '../../src/conversations/engines/embedded/embedded-synthesizer';
import type { SpeechRecognizer, SpeechSynthesizer } from '../../src/conversations/engines/engines';
import { Conversation, type ConversationLine } from '../../src/conversations/pipeline/conversation';
import { resample } from '../../src/kernel/audio/rate-converter';
import { SimulatedUser } from './in-memory-audio';
import { LoopbackCall } from '../../src/conversations/infra/loopback-call';
import { RecordingReporter } from './recording-reporter';

/**
 * Conversations for real in a test: the embedded engines (kept warm across a file's tests), an
 * in-memory call per conversation (LoopbackCall, real 20 ms clock), a SimulatedUser speaking flite's
 * audio, and a RecordingReporter. `close()` ends every call and stops the engines.
 */
export class ConversationHarness {
  readonly recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
  readonly synthesizer = new EmbeddedSynthesizer();
  private readonly running: { link: LoopbackCall; conversation: Conversation }[] = [];

  constructor() {
    this.recognizer.prewarm(2);
    this.synthesizer.prewarm();
  }

  call(
    agent: ConversationAgent,
    opts: {
      rate?: number;
      /** The dialogue, or how to make it on the agent's transport (a model's `send_dtmf` needs its keypad). */
      dialogue?: Dialogue | ((transport: AudioTransport) => Dialogue);
      reporter?: RecordingReporter;
      line?: ConversationLine;
      /** Engines in place of the harness's own (a failing or streaming one); the apology is the embedded voice. */
      recognizer?: SpeechRecognizer;
      synthesizer?: SpeechSynthesizer;
    } = {},
  ) {
    const link = new LoopbackCall(opts.rate ?? 16000);
    const reporter = opts.reporter ?? new RecordingReporter();
    const user = new SimulatedUser(link.callee);
    const conversation = new Conversation({
      sessionId: 'ses_test',
      agent,
      transport: link.agent,
      reporter,
      recognizer: opts.recognizer ?? this.recognizer,
      synthesizer: opts.synthesizer ?? this.synthesizer,
      apologySynthesizer: this.synthesizer,
      dialogue:
        typeof opts.dialogue === 'function' ? opts.dialogue(link.agent) : (opts.dialogue ?? new BuiltinDialogue(agent)),
      startedAt: new Date(),
      ...(opts.line ? { line: opts.line } : {}),
    });
    this.running.push({ link, conversation });
    link.start();
    conversation.start();
    return { link, reporter, user, conversation };
  }

  /** flite's audio of `text` at `rate`. */
  async speech(text: string, rate = 16000): Promise<Int16Array> {
    const made = await this.synthesizer.synthesize(text, {});
    return resample(made.samples, made.sampleRate, rate);
  }

  /** pocketsphinx's words for 16 kHz audio. */
  async recognise(pcm16k: Int16Array): Promise<string> {
    const stream = this.recognizer.start('en-US');
    for (let i = 0; i < pcm16k.length; i += 320) stream.write(pcm16k.subarray(i, i + 320));
    stream.write(new Int16Array(8000));
    return stream.finish();
  }

  /** Hangs up every call of the test that is still running. */
  async hangUp(): Promise<void> {
    for (const { link, conversation } of this.running.splice(0)) {
      link.close();
      await conversation.finished;
    }
  }

  async close(): Promise<void> {
    await this.hangUp();
    this.recognizer.close();
    this.synthesizer.close();
  }
}
