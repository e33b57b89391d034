/**
 * The session's commands, events and state: what its decider (session.decider.ts) folds and
 * decides, and what the reactor, the read model and the views read.
 */
import type {
  FunctionInvocation,
  FunctionTimeoutData,
  SessionAnalysisCompletedData,
  SessionConsentRefusedData,
  SessionCreatedData,
  SessionDispositionSetData,
  SessionEndedData,
  SessionFailedData,
  SessionOptOutDetectedData,
  SessionOptOutRecordingPendingPurgeData,
  SessionOptOutRecordingPurgedData,
  SessionRecordingCompletedData,
  SessionStartedData,
  SessionStatus,
  SessionTransferFailedData,
  AnsweringMachineDetection,
  SessionTransferInitiatedData,
  TranscriptEntry,
} from '../sessions.events';
import type { DomainEvent } from '../../kernel/decider';
import type { MediaSignal, TurnMetrics } from './media-signal';
import { streamName } from '../../kernel/stream-name';
import type { DispositionOption } from './disposition-evaluator';
import type { SetDisposition } from './session.disposition';
import type { AnalysisPlan, SetAnalysis } from './session.analysis';

export type { AnalysisPlan } from './session.analysis';

/** A test call's simulated callee: the lines it says, and the listening between them (absent: 800 ms). */
export interface TestPersona {
  script: string[];
  pause_ms: number;
}

/** What `pause_ms` left out means. */
export const DEFAULT_PERSONA_PAUSE_MS = 800;

/**
 * A tool the agent's model may call (docs/conversations-api.md, "Tools"): a signed POST to `url` with the
 * tenant's tool secret, bounded by `timeout_ms` (absent: {@link AGENT_DEFAULTS}.tool_timeout_ms).
 */
export interface AgentTool {
  name: string;
  description?: string;
  /** A JSON Schema object (the model's view of the arguments), kept as given. */
  parameters?: Record<string, unknown>;
  url: string;
  timeout_ms?: number;
}

/**
 * The agent of a session, as the request gave it (validated, normalised: `language` canonical,
 * `transfer_number` E.164). Optional fields are kept absent when not given (events stored before
 * they existed read the same way); their defaults are {@link AGENT_DEFAULTS}, applied by who runs the agent.
 */
export interface AgentConfig {
  prompt: string;
  voice_id?: string;
  dispositions?: DispositionOption[];
  /** Spoken when the conversation starts (absent: a short greeting). */
  first_message?: string;
  /** BCP 47 (absent: en-US). */
  language?: string;
  /** E.164: where the agent may transfer the call. */
  transfer_number?: string;
  /**
   * `cold` (absent): the caller is handed to transfer_number (a REFER); `warm`: the platform calls
   * transfer_number, briefs whoever answers (transfer_summary, or a summary of the conversation) and
   * bridges the caller to them.
   */
  transfer_mode?: TransferMode;
  /** Warm transfers: what the agent tells the person who answers before the caller is connected. */
  transfer_summary?: string;
  tools?: AgentTool[];
  /** The conversation's bound, 1 to 3600 (absent: 3600). */
  max_duration_seconds?: number;
  /** The silence that ends the user's turn, 100 to 5000 ms (absent: 500, or a streaming recogniser's own). */
  endpointing_ms?: number;
  /** Whether user speech stops the agent's (absent: true). */
  interruptible?: boolean;
  /** What is analysed once the call has ended (absent: nothing; session-analysis.ts). */
  analysis?: AnalysisPlan;
  /**
   * Outbound calls: whether an answering machine is detected (absent: true) and the message left on
   * one after its beep (absent: hung up on at once).
   */
  voicemail?: { detect?: boolean; message?: string };
}

/** How the agent transfers a call (agent_config.transfer_mode). */
export type TransferMode = 'cold' | 'warm';
export const TRANSFER_MODES: readonly TransferMode[] = ['cold', 'warm'];

/** What an agent_config field left out means (docs/conversations-api.md). */
export const AGENT_DEFAULTS = {
  language: 'en-US',
  tool_timeout_ms: 5000,
  max_duration_seconds: 3600,
  interruptible: true,
  transfer_mode: 'cold',
} as const;

/** The tool names the platform keeps for its built-in tools (the model's `transfer_call`, `end_call` and `send_dtmf`). */
export const RESERVED_TOOL_NAMES: readonly string[] = ['transfer_call', 'end_call', 'send_dtmf'];

/**
 * Who called whom: `outbound` (the platform dials `toNumber`) or `inbound` (a caller, `fromNumber`, dialled the
 * tenant's number, `toNumber`; or a participant joined a room and the agent answered). Events stored
 * without one are read by the edge (session.edge.ts): a room's as inbound, a phone call's as outbound.
 */
export type SessionDirection = 'outbound' | 'inbound';

/**
 * Why a queued session waits instead of going out (`hold_reason`), null when it does not:
 * `insufficient_credits` while the tenant's balance is depleted (docs/credits.md), `carrier_limit` while
 * the SIP trunk's budget (SIP_CPS, SIP_MAX_CALLS; docs/telephony.md) has no room for the call,
 * `concurrency_limit` while the tenant has TENANT_MAX_CALLS production calls at once. The set may grow:
 * readers treat an unknown value as "held".
 */
export const SESSION_HOLD_REASONS = ['insufficient_credits', 'carrier_limit', 'concurrency_limit', 'capacity'] as const;

/** The hold reason of a production SIP call waiting for room in the carrier's budget (docs/telephony.md). */
export const CARRIER_HOLD_REASON: (typeof SESSION_HOLD_REASONS)[number] = 'carrier_limit';

/** The hold reason of a call that waits on credits' hold (its tenant's prepaid balance is depleted). */
export const CREDITS_HOLD_REASON: (typeof SESSION_HOLD_REASONS)[number] = 'insufficient_credits';

/**
 * The speaking callee of a placed session, or null: how the conversations context finds the test
 * calls it runs (it reads `session.placed` from the sessions' streams; decision 117).
 */
export function testPersonaOf(placed: { test_mode: boolean; test_persona?: TestPersona }): TestPersona | null {
  return placed.test_mode && placed.test_persona ? placed.test_persona : null;
}

/** Who a campaign call is with, copied into the outcome and recording payloads. */
export interface ContactIdentity {
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** Internal events carry what the catalog payloads do not: the request, turns, and applied signal numbers. */
export type SessionEvent =
  | DomainEvent<
      'session.placed',
      {
        session_id: string;
        /** null for a WebRTC room session (docs/events.md, "Conventions"), as is from_number. */
        to_number: string | null;
        from_number: string | null;
        agent_config: AgentConfig;
        voice_id: string;
        test_mode: boolean;
        campaign_id: string | null;
        contact_id: string | null;
        client_reference_id: string | null;
        /** Outbound in events stored before inbound calls (upcast by the edge, session.edge.ts). */
        direction: SessionDirection;
        /**
         * The test-pool script the simulator plays when it is not picked by the destination number
         * (a test inbound call: `inbound_answered`, `inbound_no_answer`). Absent otherwise.
         */
        test_script?: string;
        /**
         * A test call's simulated callee that speaks (`test_persona`): the conversations context runs
         * it, and the test-pool simulator does not play its script. Absent otherwise.
         */
        test_persona?: TestPersona;
        /** Set on a room's session only (absent from phone calls' events). */
        room_id?: string;
        /**
         * A private prompt, sealed (SECRET_BOX): only the dispatch to the media gateway carries it, opened,
         * as `agent_config.prompt`. Its session is private: turns keep no text, no recording is kept.
         */
        sealed_prompt?: string;
      } & ContactIdentity // null in events stored before campaigns (upcast by the edge)
    >
  | DomainEvent<'session.created', SessionCreatedData>
  /** Internal: the queued call waits (a dispatch hold on the tenant); `reason` is its `hold_reason`. */
  | DomainEvent<'session.dispatch_held', { session_id: string; reason: string }>
  /** Internal: the hold was lifted and the call goes out now. */
  | DomainEvent<'session.dispatch_released', { session_id: string }>
  | DomainEvent<'session.signal_applied', { seq: number; kind: MediaSignal['kind'] }>
  | DomainEvent<'session.started', SessionStartedData>
  | DomainEvent<'session.transcript_appended', { entry: TranscriptEntry }>
  /** Internal: one agent turn's latency breakdown (a `turn_metrics` signal), shown as the session's `metrics`. */
  | DomainEvent<'session.turn_measured', { turn: TurnMetrics }>
  | DomainEvent<'session.function_invoked', { invocation: FunctionInvocation }>
  | DomainEvent<'session.agent_disposition_given', { code: string; note: string | null; at: string }>
  | DomainEvent<'function.timeout', FunctionTimeoutData>
  | DomainEvent<'session.transfer_initiated', SessionTransferInitiatedData>
  | DomainEvent<'session.transfer_failed', SessionTransferFailedData>
  | DomainEvent<'session.opt_out_detected', SessionOptOutDetectedData>
  | DomainEvent<'session.consent_refused', SessionConsentRefusedData>
  | DomainEvent<'session.ended', SessionEndedData>
  | DomainEvent<'session.failed', SessionFailedData>
  | DomainEvent<'session.disposition_set', SessionDispositionSetData>
  /** Internal: the call ended with an analysis due (session.analysis.ts); the reactor schedules its timer. */
  | DomainEvent<'session.analysis_requested', { session_id: string }>
  /** Internal: who answered an outbound call (answering-machine detection), shown as the session's `amd`. */
  | DomainEvent<'session.amd_decided', AnsweringMachineDetection>
  | DomainEvent<'session.analysis_completed', SessionAnalysisCompletedData>
  | DomainEvent<'session.recording_completed', SessionRecordingCompletedData>
  | DomainEvent<'session.opt_out_recording_pending_purge', SessionOptOutRecordingPendingPurgeData>
  | DomainEvent<'session.opt_out_recording_purged', SessionOptOutRecordingPurgedData>;

export const SESSION_EVENT_TYPES: readonly SessionEvent['type'][] = [
  'session.placed',
  'session.created',
  'session.dispatch_held',
  'session.dispatch_released',
  'session.signal_applied',
  'session.started',
  'session.transcript_appended',
  'session.turn_measured',
  'session.function_invoked',
  'session.agent_disposition_given',
  'function.timeout',
  'session.transfer_initiated',
  'session.transfer_failed',
  'session.opt_out_detected',
  'session.consent_refused',
  'session.ended',
  'session.failed',
  'session.disposition_set',
  'session.analysis_requested',
  'session.amd_decided',
  'session.analysis_completed',
  'session.recording_completed',
  'session.opt_out_recording_pending_purge',
  'session.opt_out_recording_purged',
];

export interface PlaceCall {
  type: 'place';
  sessionId: string;
  /** The callee (the request's `to`), stored as `to_number`. */
  toNumber: string;
  /** The caller (the request's `from`), stored as `from_number`. */
  fromNumber: string;
  agentConfig: AgentConfig;
  testMode: boolean;
  campaignId?: string | null;
  contactId?: string | null;
  contact?: ContactIdentity;
  clientReferenceId?: string | null;
  /** Default outbound. An inbound call is reported by the media gateway, or played by the simulator with `testScript`. */
  direction?: SessionDirection;
  testScript?: string | null;
  /** A test call's speaking callee (test mode only: the API refuses it otherwise). */
  testPersona?: TestPersona | null;
  /** A private prompt, sealed by the command handler (see `sealed_prompt`). */
  sealedPrompt?: string;
  /** A production call placed while a dispatch hold is on the tenant: it says so at once (its reason). */
  holdReason?: string | null;
}

/**
 * Opens a WebRTC room's session once the participant joined: created and started at once, with no
 * phone legs and no campaign (docs/rooms.md, "The room's session"), carrying the room's client_reference_id.
 */
export interface OpenRoomSession {
  type: 'open_room';
  sessionId: string;
  roomId: string;
  clientReferenceId: string | null;
  agentConfig: AgentConfig;
  /** The join time: the session's started_at. */
  startedAt: string;
}

/** Facts a decision needs from outside: the time, and policy values from configuration. */
export interface SignalContext {
  at: string;
  transcriptUrl: string;
  recordingUrl: (recordingId: string) => string;
  centsPerStartedMinute: number;
  purgeGraceMs: number;
}

export type SessionCommand =
  | PlaceCall
  | OpenRoomSession
  | ({ type: 'signal'; seq: number; signal: MediaSignal } & SignalContext)
  | ({ type: 'watchdog' } & SignalContext)
  /** The call's dispatch found a hold on the tenant (its timer is parked), or went out once it was lifted. */
  | { type: 'hold'; reason: string }
  | { type: 'release' }
  | { type: 'purge_recording'; at: string }
  | SetDisposition
  | SetAnalysis;

export interface Live {
  status: SessionStatus;
  sessionId: string;
  direction: SessionDirection;
  toNumber: string | null;
  fromNumber: string | null;
  testMode: boolean;
  /** A room's session: no phone legs, not metered by the minute. */
  roomId: string | null;
  campaignId: string | null;
  contactId: string | null;
  contact: ContactIdentity;
  clientReferenceId: string | null;
  /** The agent's disposition codes (frozen in session.placed). */
  dispositions: readonly DispositionOption[];
  /** The agent gave a disposition during the call. */
  agentDisposition: boolean;
  dispositionSet: boolean;
  /** What the agent asks analysed after the call (frozen in session.placed), null when nothing. */
  analysisPlan: AnalysisPlan | null;
  /** `session.analysis_completed` was stored. */
  analysed: boolean;
  createdAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  durationSeconds: number;
  transcript: TranscriptEntry[];
  /** Each measured agent turn (`session.turn_measured`), in order. */
  turnMetrics: TurnMetrics[];
  functions: FunctionInvocation[];
  seq: number;
  optedOut: boolean;
  consentRefused: boolean;
  recording: { id: string; state: 'available' | 'pending_purge' | 'purged' } | null;
  /** Why the queued call waits (SESSION_HOLD_REASONS), null once it goes out, starts or ends. */
  holdReason: string | null;
  /** Placed with a private prompt (a number verification call): no turn text, no recording is kept. */
  private?: boolean;
}

export type SessionState = { status: 'none' } | Live;

const TERMINAL: ReadonlySet<SessionStatus> = new Set(['completed', 'failed', 'no_answer', 'voicemail', 'busy']);
export const isTerminal = (status: SessionStatus): boolean => TERMINAL.has(status);
export const sessionStream = streamName('session');
