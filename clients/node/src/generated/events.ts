// Generated from the event catalog (src/catalog, src/*/…events.ts) by `npm run client:generate`. Do not edit.

/** The body of every delivery and of every item of `GET /v1/events`. */
export interface EventEnvelope<T extends string = string, D = Record<string, unknown>> {
  /** Unique event id (UUIDv7); a redelivery carries the same id. */
  id: string;
  type: T;
  tenant_id: string;
  /** When the platform emitted the event, UTC with millisecond precision. */
  created_at: string;
  data: D;
}

/** `data` of `session.created`: A call was queued for dispatch. */
export interface SessionCreatedData {
  session_id: string;
  /** International format with a leading +; null for a WebRTC room session. */
  to_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  from_number: string | null;
  /** Set when the session belongs to a campaign contact. */
  campaign_id?: string | null;
  /** Set when the session belongs to a campaign contact. */
  contact_id?: string | null;
  /** Voice used by the agent. */
  voice_id: string;
  status: "queued";
}

/** `data` of `session.started`: The agent picked up and the conversation started; recording starts about now when enabled. */
export interface SessionStartedData {
  session_id: string;
  started_at: string;
}

/** `data` of `session.ended`: The call finished with status completed. */
export interface SessionEndedData {
  session_id: string;
  /** Reference passed when the room was created; null when none was passed. */
  client_reference_id: string | null;
  /** Set when the session belongs to a campaign contact. */
  campaign_id?: string | null;
  /** Set when the session belongs to a campaign contact. */
  contact_id?: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  from_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  to_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  phone_number: string | null;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  status: "completed";
  /** Why the session ended, e.g. completed or no_answer (not a closed set). */
  end_reason: string;
  started_at: string;
  ended_at: string;
  /** 0 for a call that never connected. */
  duration_seconds: number;
  /** Metered cost in cents; 0 for a call that never connected. */
  actual_cost_cents: number;
  /** Empty array when there is none. */
  transcript: Array<{
    role: "agent" | "user";
    /** What was said; empty only on a keypad turn (see dtmf). A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
    content?: string;
    /** The keys the caller pressed (0-9, *, #, A-D), on a user turn whose content is empty. */
    dtmf?: string;
    /** Seconds from session start. */
    t?: number;
  }>;
  /** `{base_url}/v1/sessions/<session_id>/transcript.json`; null when there is no transcript. */
  transcript_url?: string | null;
  /** Summary of agent function calls. */
  function_invocations: {
    name: string;
    /** Outcome of the call, e.g. succeeded. */
    status: string;
    duration_ms: number;
  }[];
}

/** `data` of `session.failed`: The call finished with status failed, no_answer, voicemail or busy. */
export interface SessionFailedData {
  session_id: string;
  /** Reference passed when the room was created; null when none was passed. */
  client_reference_id: string | null;
  /** Set when the session belongs to a campaign contact. */
  campaign_id?: string | null;
  /** Set when the session belongs to a campaign contact. */
  contact_id?: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  from_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  to_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  phone_number: string | null;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  status: "failed" | "no_answer" | "voicemail" | "busy";
  /** Why the session ended, e.g. completed or no_answer (not a closed set). */
  end_reason: string;
  /** Absent or null when the call never connected. */
  started_at?: string | null;
  ended_at: string;
  /** 0 for a call that never connected. */
  duration_seconds: number;
  /** Metered cost in cents; 0 for a call that never connected. */
  actual_cost_cents: number;
  /** Empty array when there is none. */
  transcript: Array<{
    role: "agent" | "user";
    /** What was said; empty only on a keypad turn (see dtmf). A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept. */
    content?: string;
    /** The keys the caller pressed (0-9, *, #, A-D), on a user turn whose content is empty. */
    dtmf?: string;
    /** Seconds from session start. */
    t?: number;
  }>;
  /** `{base_url}/v1/sessions/<session_id>/transcript.json`; null when there is no transcript. */
  transcript_url?: string | null;
  /** Summary of agent function calls. */
  function_invocations: {
    name: string;
    /** Outcome of the call, e.g. succeeded. */
    status: string;
    duration_ms: number;
  }[];
  /** With status voicemail: true when the agent spoke its voicemail.message after the machine's beep; absent otherwise. */
  voicemail_message_left?: boolean;
}

/** `data` of `session.disposition_set`: A model derived the disposition of a call placed by an agent in a campaign (asynchronous, after session.ended; at most once per session). */
export interface SessionDispositionSetData {
  session_id: string;
  campaign_id: string;
  contact_id: string;
  disposition_code: string;
  /** null when the evaluator gave no note. */
  disposition_note: string | null;
  evaluated_at: string;
  /** Who derived the disposition: llm (a language model) or simulator (the built-in deterministic evaluator, used for test-mode calls and when no model is configured). */
  evaluator: string;
  /** The model the llm evaluator asked (`LLM_MODEL`); null for the built-in evaluator. */
  model?: string | null;
}

/** `data` of `session.analysis_completed`: The call was analysed as its agent's `analysis` asked: summary, structured data, success (asynchronous, after session.ended or session.failed of a call that was answered and has a transcript; at most once per session). */
export interface SessionAnalysisCompletedData {
  session_id: string;
  analysis: {
    /** A short summary of the call; null when the agent did not ask for one (`analysis.summary`). Written by the model at LLM_URL, or by the built-in analysis (test-pool calls, no LLM_URL): the first and last things the caller said and how the call ended. */
    summary: string | null;
    /** Any JSON value (null included): the data the agent asked for, conforming to its `analysis.structured_data` JSON Schema (usually an object); null when it asked for none, when the built-in analysis ran (it extracts nothing), or when no model answer conformed after the retries. */
    structured_data: unknown;
    /** Whether the call met the agent's `analysis.success_criteria`, as the model judged it; null when there are no criteria or when the built-in analysis ran (it does not judge). */
    success: boolean | null;
  };
}

/** `data` of `session.recording_completed`: The recording was finalised and uploaded to a public file host; lags session.ended by tens of seconds. */
export interface SessionRecordingCompletedData {
  session_id: string;
  /** Set when the session belongs to a campaign contact. */
  campaign_id?: string | null;
  /** Set when the session belongs to a campaign contact. */
  contact_id?: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  from_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  to_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  phone_number: string | null;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  recording_id: string;
  /** Recording status, e.g. completed. */
  status: string;
  /** e.g. dual. */
  channels: string;
  started_at?: string | null;
  ended_at?: string | null;
  duration_seconds?: number | null;
  /** Signed link to the file under `{recordings_url}`, valid for `RECORDING_URL_TTL` (default 7 days); `GET /v1/sessions/{session_id}/recording` gives a fresh one. Answers 404 once purged. */
  recording_url: string;
}

/** `data` of `session.transfer_initiated`: The agent transferred the live call to a human (fires mid-call). */
export interface SessionTransferInitiatedData {
  session_id: string;
  /** International format with a leading +; null for a WebRTC room session. */
  to_number: string | null;
  /** International format with a leading +; null for a WebRTC room session. */
  from_number: string | null;
  /** Number of the human the call is transferred to. International format with a leading +. */
  transfer_number: string;
  transferred_at: string;
}

/** `data` of `session.transfer_failed`: A transfer did not go through; the caller stays with the agent, who says so, and the call goes on (fires mid-call, after session.transfer_initiated). */
export interface SessionTransferFailedData {
  session_id: string;
  /** Where the call was to be transferred. International format with a leading +. */
  transfer_number: string;
  /** refused: the carrier or the caller's side answered the REFER with 4xx/6xx; target_failed: the target did not take the call (a failing NOTIFY sipfrag, or the warm transfer's second call failed); no_answer: nothing answered within 30 s; not_supported: this kind of call cannot be transferred. */
  reason: "refused" | "target_failed" | "no_answer" | "not_supported";
  /** The SIP status that said so (the REFER's answer or the sipfrag's); null when none came. */
  sip_code: number | null;
}

/** `data` of `session.opt_out_detected`: The caller asked not to be called again; the number is added to the tenant's do-not-call list automatically. */
export interface SessionOptOutDetectedData {
  session_id: string;
  /** International format with a leading +; null for a WebRTC room session. Added to the tenant's do-not-call list. */
  phone_number: string | null;
  detected_at: string;
}

/** `data` of `session.opt_out_recording_pending_purge`: After an opt-out, the recording was flagged for purge at the end of the grace window. */
export interface SessionOptOutRecordingPendingPurgeData {
  session_id: string;
  recording_id: string;
  /** End of the grace window (7 days by default). */
  purge_after: string;
}

/** `data` of `session.opt_out_recording_purged`: The recording was purged; its recording_url answers 404 from now on. */
export interface SessionOptOutRecordingPurgedData {
  session_id: string;
  recording_id: string;
  purged_at: string;
}

/** `data` of `session.consent_refused`: The caller refused recording consent; the call was ended. */
export interface SessionConsentRefusedData {
  session_id: string;
  refused_at: string;
}

/** `data` of `campaign.created`: A campaign was created; it is still a draft. */
export interface CampaignCreatedData {
  campaign_id: string;
  name: string;
  /** e.g. phone_call. */
  channel: string;
  /** e.g. phone_call. */
  session_type: string;
}

/** `data` of `campaign.started`: The campaign moved from draft to running. */
export interface CampaignStartedData {
  campaign_id: string;
  started_at: string;
}

/** `data` of `campaign.paused`: The campaign was paused by hand; in-flight calls finish. */
export interface CampaignPausedData {
  campaign_id: string;
  paused_at: string;
  /** e.g. manual. */
  reason: string;
}

/** `data` of `campaign.paused_quiet_hours`: The campaign paused itself: every remaining contact is inside its local quiet hours. */
export interface CampaignPausedQuietHoursData {
  campaign_id: string;
  paused_at: string;
  /** When the earliest remaining contact can be called again. */
  next_open_at: string;
}

/** `data` of `campaign.resumed`: A paused campaign is running again: its quiet hours ended, or it was resumed by hand. */
export interface CampaignResumedData {
  campaign_id: string;
  resumed_at: string;
  reason: "quiet_hours_ended" | "manual";
}

/** `data` of `campaign.completed`: Every contact reached a terminal state. */
export interface CampaignCompletedData {
  campaign_id: string;
  completed_at: string;
  total_contacts: number;
  completed_sessions: number;
  failed_sessions: number;
}

/** `data` of `campaign.contact_dispatched`: One contact was handed to the dispatcher and a session created. */
export interface CampaignContactDispatchedData {
  contact_id: string;
  campaign_id: string;
  /** As given for the contact; international format with a leading + unless skipped as invalid. */
  phone_number: string;
  /** Copied from the contact; null when the contact has none. */
  email: string | null;
  /** Copied from the contact; null when the contact has none. */
  first_name: string | null;
  /** Copied from the contact; null when the contact has none. */
  last_name: string | null;
  /** The session id for phone campaigns. */
  delivery_row_id: string;
}

/** `data` of `campaign.contact_completed`: A contact reached terminal success. */
export interface CampaignContactCompletedData {
  contact_id: string;
  campaign_id: string;
  /** As given for the contact; international format with a leading + unless skipped as invalid. */
  phone_number: string;
  /** Copied from the contact; null when the contact has none. */
  email: string | null;
  /** Copied from the contact; null when the contact has none. */
  first_name: string | null;
  /** Copied from the contact; null when the contact has none. */
  last_name: string | null;
  session_id: string;
  duration_seconds: number;
  actual_cost_cents: number;
}

/** `data` of `campaign.contact_failed`: A contact reached terminal failure; the underlying error is in the session.failed event of its session. */
export interface CampaignContactFailedData {
  contact_id: string;
  campaign_id: string;
  /** As given for the contact; international format with a leading + unless skipped as invalid. */
  phone_number: string;
  /** Copied from the contact; null when the contact has none. */
  email: string | null;
  /** Copied from the contact; null when the contact has none. */
  first_name: string | null;
  /** Copied from the contact; null when the contact has none. */
  last_name: string | null;
  session_id: string;
  duration_seconds: number;
  actual_cost_cents: number;
}

/** `data` of `campaign.contact_skipped`: A contact was skipped before dispatch and never had a session. */
export interface CampaignContactSkippedData {
  contact_id: string;
  campaign_id: string;
  /** As given for the contact; international format with a leading + unless skipped as invalid. */
  phone_number: string;
  /** Copied from the contact; null when the contact has none. */
  email: string | null;
  /** Copied from the contact; null when the contact has none. */
  first_name: string | null;
  /** Copied from the contact; null when the contact has none. */
  last_name: string | null;
  skip_reason: "invalid" | "dnc_blocked" | "daily_cap_reached" | "quiet_hours_expired" | "concurrency_full" | "tenant_suspended";
}

/** `data` of `credits.low_balance`: The balance fell below the tenant's warning threshold (once per drop, not on every later call). */
export interface CreditsLowBalanceData {
  /** Balance in cents. */
  balance_cents: number;
  /** Warning threshold in cents. */
  threshold_cents: number;
  /** ISO 4217 code, e.g. USD. */
  currency: string;
}

/** `data` of `credits.depleted`: The balance reached zero; new dispatches wait until a top-up settles, running calls finish. */
export interface CreditsDepletedData {
  /** Balance in cents: 0 or below. */
  balance_cents: number;
  depleted_at: string;
  /** ISO 4217 code, e.g. USD. */
  currency: string;
}

/** `data` of `credits.topup_succeeded`: A top-up settled with the payment processor; fires after the balance change is committed. */
export interface CreditsTopupSucceededData {
  /** Amount added, in cents. */
  amount_cents: number;
  /** Balance after the top-up, in cents. */
  new_balance_cents: number;
  /** ISO 4217 code, e.g. USD. */
  currency: string;
  processor_payment_intent_id: string;
}

/** `data` of `voice_clone.training_started`: Samples were uploaded and the training job picked them up. */
export interface VoiceCloneTrainingStartedData {
  voice_id: string;
  name: string;
  /** Number of uploaded samples. */
  samples: number;
}

/** `data` of `voice_clone.training_succeeded`: Training finished; the voice can be used in campaigns and sessions. */
export interface VoiceCloneTrainingSucceededData {
  voice_id: string;
  name: string;
  ready_at: string;
}

/** `data` of `voice_clone.training_failed`: Training failed; error_code says why. */
export interface VoiceCloneTrainingFailedData {
  voice_id: string;
  name: string;
  error_code: "insufficient_samples" | "sample_too_short" | "sample_too_quiet" | "voice_clone_disabled_on_plan" | "sample_too_long" | "samples_too_long" | "decode_timeout" | "decode_failed";
  /** Free text. */
  error_message: string;
}

/** `data` of `room.created`: A WebRTC room was created and a signed URL minted for the participant. */
export interface RoomCreatedData {
  room_id: string;
  /** Signed link for the participant: `{rooms_url}/<room_id>?token=…`. */
  room_url: string;
  expires_at: string;
  /** Optional on every room event, to join on. */
  participant_id?: string | null;
  /** Optional on every room event, to join on. */
  client_reference_id?: string | null;
}

/** `data` of `room.landing_viewed`: The participant opened the room URL and has not joined yet (once per room). */
export interface RoomLandingViewedData {
  room_id: string;
  viewed_at: string;
  /** Optional on every room event, to join on. */
  participant_id?: string | null;
  /** Optional on every room event, to join on. */
  client_reference_id?: string | null;
}

/** `data` of `room.joined`: The participant accepted microphone access and joined; the agent is connected. */
export interface RoomJoinedData {
  room_id: string;
  participant_id: string;
  joined_at: string;
  /** Optional on every room event, to join on. */
  client_reference_id?: string | null;
}

/** `data` of `room.completed`: Both sides hung up cleanly. */
export interface RoomCompletedData {
  room_id: string;
  completed_at: string;
  /** End time minus join time. */
  duration_seconds: number;
  /** Optional on every room event, to join on. */
  participant_id?: string | null;
  /** Optional on every room event, to join on. */
  client_reference_id?: string | null;
}

/** `data` of `room.expired`: expires_at passed and nobody joined. */
export interface RoomExpiredData {
  room_id: string;
  expired_at: string;
  /** Optional on every room event, to join on. */
  participant_id?: string | null;
  /** Optional on every room event, to join on. */
  client_reference_id?: string | null;
}

/** `data` of `room.failed`: Room setup could not finish, for example relay authentication failed or the agent is unreachable. */
export interface RoomFailedData {
  room_id: string;
  /** e.g. agent_unreachable (not a closed set). */
  error_code: string;
  /** Free text. */
  error_message: string;
  /** Optional on every room event, to join on. */
  participant_id?: string | null;
  /** Optional on every room event, to join on. */
  client_reference_id?: string | null;
}

/** `data` of `number.answer_rate_degraded`: An inbound number's answer rate fell below 80% over a rolling 24 hours. */
export interface NumberAnswerRateDegradedData {
  /** International format with a leading +. */
  phone_number: string;
  /** Answered share of inbound calls over the window, between 0 and 1. */
  answer_rate: number;
  window_start: string;
  window_end: string;
}

/** `data` of `function.timeout`: An agent function call exceeded its timeout; the agent tells the caller it is still working and the conversation continues. */
export interface FunctionTimeoutData {
  session_id: string;
  function_id: string;
  name: string;
  timeout_ms: number;
}

/** `data` of `webhook.test`: Synthetic event sent by POST /v1/webhook_endpoints/{id}/test to that endpoint only. */
export interface WebhookTestData {
  endpoint_id: string;
  emitted_at: string;
}

/** `data` of `webhook.endpoint_disabled_notice`: The endpoint was suspended automatically after repeated permanent delivery failures; an e-mail notice is sent too. */
export interface WebhookEndpointDisabledNoticeData {
  endpoint_id: string;
  url: string;
  disabled_at: string;
  /** Consecutive permanently failed deliveries. */
  failure_streak: number;
  /** HTTP status of the last failed delivery; null when it got no response (timeout or network error). */
  last_status: number | null;
}

/** Payload type by event type. */
export interface WebhookEventPayloads {
  "session.created": SessionCreatedData;
  "session.started": SessionStartedData;
  "session.ended": SessionEndedData;
  "session.failed": SessionFailedData;
  "session.disposition_set": SessionDispositionSetData;
  "session.analysis_completed": SessionAnalysisCompletedData;
  "session.recording_completed": SessionRecordingCompletedData;
  "session.transfer_initiated": SessionTransferInitiatedData;
  "session.transfer_failed": SessionTransferFailedData;
  "session.opt_out_detected": SessionOptOutDetectedData;
  "session.opt_out_recording_pending_purge": SessionOptOutRecordingPendingPurgeData;
  "session.opt_out_recording_purged": SessionOptOutRecordingPurgedData;
  "session.consent_refused": SessionConsentRefusedData;
  "campaign.created": CampaignCreatedData;
  "campaign.started": CampaignStartedData;
  "campaign.paused": CampaignPausedData;
  "campaign.paused_quiet_hours": CampaignPausedQuietHoursData;
  "campaign.resumed": CampaignResumedData;
  "campaign.completed": CampaignCompletedData;
  "campaign.contact_dispatched": CampaignContactDispatchedData;
  "campaign.contact_completed": CampaignContactCompletedData;
  "campaign.contact_failed": CampaignContactFailedData;
  "campaign.contact_skipped": CampaignContactSkippedData;
  "credits.low_balance": CreditsLowBalanceData;
  "credits.depleted": CreditsDepletedData;
  "credits.topup_succeeded": CreditsTopupSucceededData;
  "voice_clone.training_started": VoiceCloneTrainingStartedData;
  "voice_clone.training_succeeded": VoiceCloneTrainingSucceededData;
  "voice_clone.training_failed": VoiceCloneTrainingFailedData;
  "room.created": RoomCreatedData;
  "room.landing_viewed": RoomLandingViewedData;
  "room.joined": RoomJoinedData;
  "room.completed": RoomCompletedData;
  "room.expired": RoomExpiredData;
  "room.failed": RoomFailedData;
  "number.answer_rate_degraded": NumberAnswerRateDegradedData;
  "function.timeout": FunctionTimeoutData;
  "webhook.test": WebhookTestData;
  "webhook.endpoint_disabled_notice": WebhookEndpointDisabledNoticeData;
}

/** Every catalog event type. */
export type WebhookEventType = keyof WebhookEventPayloads;

/** Every catalog event type, in catalog order. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  "session.created",
  "session.started",
  "session.ended",
  "session.failed",
  "session.disposition_set",
  "session.analysis_completed",
  "session.recording_completed",
  "session.transfer_initiated",
  "session.transfer_failed",
  "session.opt_out_detected",
  "session.opt_out_recording_pending_purge",
  "session.opt_out_recording_purged",
  "session.consent_refused",
  "campaign.created",
  "campaign.started",
  "campaign.paused",
  "campaign.paused_quiet_hours",
  "campaign.resumed",
  "campaign.completed",
  "campaign.contact_dispatched",
  "campaign.contact_completed",
  "campaign.contact_failed",
  "campaign.contact_skipped",
  "credits.low_balance",
  "credits.depleted",
  "credits.topup_succeeded",
  "voice_clone.training_started",
  "voice_clone.training_succeeded",
  "voice_clone.training_failed",
  "room.created",
  "room.landing_viewed",
  "room.joined",
  "room.completed",
  "room.expired",
  "room.failed",
  "number.answer_rate_degraded",
  "function.timeout",
  "webhook.test",
  "webhook.endpoint_disabled_notice",
];

/** One event: narrow it with `switch (event.type)`. */
export type WebhookEvent = {
  [T in WebhookEventType]: EventEnvelope<T, WebhookEventPayloads[T]>;
}[WebhookEventType];

/** The event of one type, e.g. `WebhookEventOf<"session.ended">`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
