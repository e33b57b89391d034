import type { ConversationAgent, Dialogue } from '../dialogue/dialogue';
import type { SpeechRecognizer, SpeechSynthesizer } from '../engines/engines';
import type { AudioTransport } from './audio-transport';
import type { ConversationReporter, TransferOutcome, WarmTransfer } from './conversation-reporter';
import type { TurnTelemetry } from './turn-telemetry';

/** What the call's line can do besides audio: a phone call transfers (a REFER, or warm: a bridge); others cannot. */
export interface ConversationLine {
  /**
   * Hands the caller to `number`; resolves once it went through (the line is then the target's) or
   * failed. With `warm`, the line calls `number` itself and has the agent brief whoever answers
   * before it connects the caller to them.
   */
  transfer?(number: string, warm?: WarmTransfer): Promise<TransferOutcome>;
}

export interface ConversationDeps {
  sessionId: string;
  agent: ConversationAgent;
  transport: AudioTransport;
  reporter: ConversationReporter;
  recognizer: SpeechRecognizer;
  synthesizer: SpeechSynthesizer;
  /** Speaks the apology when `synthesizer` failed (the embedded one; absent: `synthesizer`). */
  apologySynthesizer?: SpeechSynthesizer;
  dialogue: Dialogue;
  /** The session's start: turn times (`t`) and metrics count from it. */
  startedAt: Date;
  telemetry?: TurnTelemetry;
  /** The line's controls (absent: a transfer ends the conversation as `transferred`, the medium's to act on). */
  line?: ConversationLine;
  /**
   * An answering machine took the call: the agent speaks this message in place of its opening, hears
   * nothing, and ends (`message_left`) once it was played.
   */
  voicemailMessage?: string;
}
