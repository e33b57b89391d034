import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { BLOB_STORE, type BlobStore } from '../../infra/blobs/blob-store.port';
import { newId } from '../../kernel/ids';
import {
  DEFAULT_PERSONA_PAUSE_MS,
  PersonaCalls,
  type PersonaCall,
  recordingPath,
  SessionActionCommand,
  storeRecordingFile,
} from '../../sessions';
import { EMBEDDED_SPEECH_SYNTHESIZER, type SpeechSynthesizer } from '../engines/engines';
import { LoopbackCall } from '../infra/loopback-call';
import { DualChannelRecorder } from '../../kernel/media/dual-channel-recorder';
import type { ConversationEnd } from '../pipeline/conversation-reporter';
import { Conversations } from './conversations.service';
import { Persona } from './persona';
import { SessionReporters } from './session-reporter';

/** The persona call's own signals: answered first, hang-up and recording above every conversation signal. */
const SEQ = { answered: 1, hangup: 2_000_000_000, recording: 2_000_000_001 } as const;
/** Persona calls are carried at 16 kHz: the embedded recogniser's rate, no phone line between. */
const RATE = 16_000;

/** The session's end_reason for each way a persona call's conversation ends. */
const END_REASON: Record<ConversationEnd, string> = {
  goodbye: 'completed',
  end_call: 'completed',
  hangup: 'completed',
  transferred: 'transferred',
  max_duration: 'max_duration',
};

/**
 * Converses a test persona call (docs/conversations-api.md, "Test persona calls"): the session is
 * answered, the agent's conversation runs on one end of a call inside this process and the persona
 * (its script spoken by the embedded synthesis) on the other, in real time; when the persona has said
 * its last line and heard the answer, it hangs up (or the agent ends the call first). The call is
 * recorded on both channels, streamed to a WAV file under DATA_DIR as it goes (WavFileWriter: one
 * 64 KB block in memory, whatever the call's length), then stored and reported like any call's
 * recording. How many a tenant runs at once is bounded where they are placed (POST /v1/calls, 429).
 */
@Injectable()
export class PersonaCallRunner extends PersonaCalls {
  private readonly logger = new Logger('PersonaCalls');

  constructor(
    private readonly conversations: Conversations,
    private readonly reporters: SessionReporters,
    private readonly commands: CommandBus,
    @Inject(EMBEDDED_SPEECH_SYNTHESIZER) private readonly voice: SpeechSynthesizer,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async run({ tenantId, sessionId, agent, persona }: PersonaCall): Promise<void> {
    const signal = (seq: number, s: ConstructorParameters<typeof SessionActionCommand>[2]) =>
      this.commands.execute(new SessionActionCommand(tenantId, sessionId, s));
    await signal(SEQ.answered, { type: 'signal', seq: SEQ.answered, signal: { kind: 'answered' } });
    const recordingId = newId('rec');
    const recording = await DualChannelRecorder.create(recordingPath(this.config, recordingId), { sampleRate: RATE });
    let stored = false;
    try {
      const call = new LoopbackCall(RATE, recording);
      const callee = new Persona(call.callee, this.voice, {
        script: persona.script,
        pause_ms: persona.pause_ms ?? DEFAULT_PERSONA_PAUSE_MS,
      });
      const handle = this.conversations.start({
        tenantId,
        sessionId,
        agent,
        transport: call.agent,
        startedAt: new Date(),
        // The agent ended the call (goodbye, end_call, a transfer): the line goes down for both.
        reporter: this.reporters.of(tenantId, sessionId, () => {
          call.close();
          return Promise.resolve();
        }),
      });
      call.start();
      try {
        await Promise.race([callee.run(), handle.finished]);
      } catch (err) {
        this.logger.error(`persona call ${sessionId}: ${err instanceof Error ? err.message : String(err)}`);
      }
      call.close();
      await handle.end();
      const reason = await handle.finished;
      const seconds = Math.round(call.seconds);
      await signal(SEQ.hangup, {
        type: 'signal',
        seq: SEQ.hangup,
        signal: { kind: 'hangup', status: 'completed', end_reason: END_REASON[reason], duration_seconds: seconds },
      });
      await recording.finish();
      await storeRecordingFile(this.blobs, recordingId, recording.path);
      stored = true;
    } finally {
      // A call that failed before its recording was stored leaves no file behind.
      if (!stored) await recording.discard();
    }
    const recorded = recording.dataBytes / (RATE * 4);
    await signal(SEQ.recording, {
      type: 'signal',
      seq: SEQ.recording,
      signal: {
        kind: 'recording_ready',
        recording_id: recordingId,
        duration_seconds: Math.round(recorded),
        channels: 'dual',
      },
    });
  }
}
