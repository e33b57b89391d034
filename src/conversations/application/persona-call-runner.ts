import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { errorMessage } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { DEFAULT_PERSONA_PAUSE_MS, PersonaCalls, type PersonaCall, recordingPath } from '../../sessions';
import { EMBEDDED_SPEECH_SYNTHESIZER, type SpeechSynthesizer } from '../engines/engines';
import { LoopbackCall } from '../infra/loopback-call';
import { DualChannelRecorder } from '../../kernel/media/dual-channel-recorder';
import { type AgentEnd, CallHost } from './call-host';
import { ConversationCapacity } from '../capacity/conversation-capacity';
import { Persona } from './persona';

/** Persona calls are carried at 16 kHz: the embedded recogniser's rate, no phone line between. */
const RATE = 16_000;

/** How a persona call ends: the persona hung up after its script, or the agent ended it. */
type PersonaCallEnd = { by: 'persona' } | { by: 'agent'; reason: AgentEnd };

/** The session's end_reason for each way the agent ends a persona call (the persona's hang-up: completed). */
const END_REASON: Record<AgentEnd, string> = {
  goodbye: 'completed',
  end_call: 'completed',
  transferred: 'transferred',
  message_left: 'voicemail',
  max_duration: 'max_duration',
};

/**
 * Converses a test persona call (docs/conversations-api.md, "Test persona calls"): the session is
 * answered, the agent's conversation runs on one end of a call inside this process and the persona
 * (its script spoken by the embedded synthesis) on the other, in real time; when the persona has said
 * its last line and heard the answer, it hangs up (or the agent ends the call first). The call is
 * hosted like any call (CallHost): recorded on both channels, streamed to a WAV file under DATA_DIR
 * as it goes, then stored and reported. How many a tenant runs at once is bounded where they are
 * placed (POST /v1/calls, 429).
 */
@Injectable()
export class PersonaCallRunner extends PersonaCalls {
  private readonly logger = new Logger('PersonaCalls');

  constructor(
    private readonly host: CallHost,
    @Inject(EMBEDDED_SPEECH_SYNTHESIZER) private readonly voice: SpeechSynthesizer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly capacity: ConversationCapacity,
  ) {
    super();
  }

  admitting(): boolean {
    return this.capacity.view().admitting;
  }

  /** Runs the call in a place among this instance's conversations; none free: it is to wait (`retryInMs`). */
  async run(call: PersonaCall): Promise<{ retryInMs: number } | void> {
    const place = this.capacity.request('persona');
    if (!place.slot) return { retryInMs: place.retryAfterSeconds * 1000 };
    try {
      await this.converse(call);
    } finally {
      place.slot.release();
    }
  }

  private async converse({ tenantId, sessionId, agent, persona }: PersonaCall): Promise<void> {
    const recordingId = newId('rec');
    const path = recordingPath(this.config, recordingId);
    const recorder = await DualChannelRecorder.create(path, { sampleRate: RATE });
    const line = new LoopbackCall(RATE, recorder);
    const call = this.host.open<PersonaCallEnd>({
      tenantId,
      sessionId,
      agent,
      // The agent ended the call (goodbye, end_call, a transfer), or the persona did: the line goes down for both.
      line: { hangUp: () => Promise.resolve(line.close()) },
      sink: this.host.toSession(tenantId, sessionId, (ending) => ({
        status: 'completed',
        end_reason: ending.by === 'agent' ? END_REASON[ending.reason] : 'completed',
        duration_seconds: Math.round(line.seconds),
      })),
      recording: { id: recordingId, path, recorder },
      agentEnded: (reason) => ({ by: 'agent', reason }),
    });
    const callee = new Persona(line.callee, this.voice, {
      script: persona.script,
      pause_ms: persona.pause_ms ?? DEFAULT_PERSONA_PAUSE_MS,
    });
    try {
      // The persona speaks once the agent listens.
      await call.converse(line.agent, new Date());
    } catch (err) {
      // The session could not be answered: nothing is written or kept, and the timer runs the call again.
      line.close();
      await recorder.discard();
      throw err;
    }
    line.start();
    try {
      // The persona's script is over, or the conversation is (the agent ended it, the service stops).
      await Promise.race([callee.run(), call.conversationOver]);
    } catch (err) {
      this.logger.error(`persona call ${sessionId}: ${errorMessage(err)}`);
    }
    await call.end({ by: 'persona' });
  }
}
