/** The payload types of the sessions context's catalog events (schemas and examples: sessions.events.ts). */

export const SESSION_STATUSES = [
  'queued',
  'in_progress',
  'completed',
  'failed',
  'no_answer',
  'voicemail',
  'busy',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Final statuses reported by session.failed (session.ended always carries `completed`). */
export const SESSION_FAILURE_STATUSES = ['failed', 'no_answer', 'voicemail', 'busy'] as const;
export type SessionFailureStatus = (typeof SESSION_FAILURE_STATUSES)[number];

export interface TranscriptEntry {
  role: 'agent' | 'user';
  /** What was said: empty only on a keypad turn; absent only on a private session's turns (their words are not kept). */
  content?: string;
  /** The keys the caller pressed (a user turn with empty `content`), e.g. "1" or "42#". */
  dtmf?: string;
  /** Seconds from session start. */
  t?: number;
}

export interface FunctionInvocation {
  name: string;
  status: string;
  duration_ms: number;
}

export interface SessionCreatedData {
  session_id: string;
  to_number: string | null;
  from_number: string | null;
  campaign_id?: string | null;
  contact_id?: string | null;
  voice_id: string;
  status: 'queued';
}

export interface SessionStartedData {
  session_id: string;
  started_at: string;
}

/** Everything session.ended and session.failed share except `status` and `started_at`. */
export interface SessionOutcomeFields {
  session_id: string;
  client_reference_id: string | null;
  campaign_id?: string | null;
  contact_id?: string | null;
  from_number: string | null;
  to_number: string | null;
  phone_number: string | null;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  end_reason: string;
  ended_at: string;
  duration_seconds: number;
  actual_cost_cents: number;
  transcript: readonly TranscriptEntry[];
  transcript_url?: string | null;
  function_invocations: readonly FunctionInvocation[];
}

export interface SessionEndedData extends SessionOutcomeFields {
  status: 'completed';
  started_at: string;
}

export interface SessionFailedData extends SessionOutcomeFields {
  status: SessionFailureStatus;
  /** Absent or null when the call never connected. */
  started_at?: string | null;
  /** With status voicemail: whether the agent left its `voicemail.message` after the beep. */
  voicemail_message_left?: boolean;
}

/** Who answered an outbound call, as the answering-machine detection decided, and how soon. */
export interface AnsweringMachineDetection {
  result: 'human' | 'machine' | 'unknown';
  /** From the answer (ms of the callee's audio). */
  decided_after_ms: number;
}

export interface SessionDispositionSetData {
  session_id: string;
  campaign_id: string;
  contact_id: string;
  disposition_code: string;
  disposition_note: string | null;
  evaluated_at: string;
  evaluator: string;
  model?: string | null;
}

/**
 * A call's post-call analysis (`agent_config.analysis`): each part null when the agent did not ask for
 * it, `structured_data` also when no answer matched the agent's schema, `success` also without a model.
 */
export interface CallAnalysis {
  summary: string | null;
  /** Conforms to the agent's `analysis.structured_data` JSON Schema when not null. */
  structured_data: unknown;
  success: boolean | null;
}

export interface SessionAnalysisCompletedData {
  session_id: string;
  analysis: CallAnalysis;
}

export interface SessionRecordingCompletedData {
  session_id: string;
  campaign_id?: string | null;
  contact_id?: string | null;
  from_number: string | null;
  to_number: string | null;
  phone_number: string | null;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  recording_id: string;
  status: string;
  channels: string;
  started_at?: string | null;
  ended_at?: string | null;
  duration_seconds?: number | null;
  recording_url: string;
}

export interface SessionTransferInitiatedData {
  session_id: string;
  to_number: string | null;
  from_number: string | null;
  transfer_number: string;
  transferred_at: string;
}

/** Why a transfer did not happen (`session.transfer_failed`). */
export const TRANSFER_FAILURE_REASONS = ['refused', 'target_failed', 'no_answer', 'not_supported'] as const;
export type TransferFailureReason = (typeof TRANSFER_FAILURE_REASONS)[number];

export interface SessionTransferFailedData {
  session_id: string;
  transfer_number: string;
  reason: TransferFailureReason;
  /** The SIP status that said so (the REFER's answer or the NOTIFY's sipfrag); null when none came. */
  sip_code: number | null;
}

export interface SessionOptOutDetectedData {
  session_id: string;
  phone_number: string | null;
  detected_at: string;
}

export interface SessionOptOutRecordingPendingPurgeData {
  session_id: string;
  recording_id: string;
  purge_after: string;
}

export interface SessionOptOutRecordingPurgedData {
  session_id: string;
  recording_id: string;
  purged_at: string;
}

export interface SessionConsentRefusedData {
  session_id: string;
  refused_at: string;
}

export interface FunctionTimeoutData {
  session_id: string;
  function_id: string;
  name: string;
  timeout_ms: number;
}

export type SessionPayloads = {
  'session.created': SessionCreatedData;
  'session.started': SessionStartedData;
  'session.ended': SessionEndedData;
  'session.failed': SessionFailedData;
  'session.disposition_set': SessionDispositionSetData;
  'session.analysis_completed': SessionAnalysisCompletedData;
  'session.recording_completed': SessionRecordingCompletedData;
  'session.transfer_initiated': SessionTransferInitiatedData;
  'session.transfer_failed': SessionTransferFailedData;
  'session.opt_out_detected': SessionOptOutDetectedData;
  'session.opt_out_recording_pending_purge': SessionOptOutRecordingPendingPurgeData;
  'session.opt_out_recording_purged': SessionOptOutRecordingPurgedData;
  'session.consent_refused': SessionConsentRefusedData;
  'function.timeout': FunctionTimeoutData;
};
