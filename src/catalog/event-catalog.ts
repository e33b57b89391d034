/**
 * The event catalog: the single source of truth for every webhook event type.
 *
 * Each type has a hand-written payload interface and a JSON Schema (draft 2020-12) built from
 * typed field helpers, so the compiler rejects a schema that drifts from its interface (a missing
 * or extra property, an optional field marked required, a nullable field that is not). Producers
 * emit `CatalogEvent`s; the webhook sender, the OpenAPI document and docs/events.md all read
 * `EVENT_CATALOG`.
 *
 * Nullability follows SPEC.md: a field marked `?` may be absent or null; a listed field is
 * required, and nullable only where SPEC says it can be null (room-session phone legs,
 * client_reference_id, transcript_url) or where a value can be missing (see each `note`).
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';

// ---------------------------------------------------------------------------------------------
// JSON Schema and typed field helpers
// ---------------------------------------------------------------------------------------------

export type JsonSchemaTypeName = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** The subset of JSON Schema 2020-12 that catalog schemas use. */
export interface JsonSchemaObject {
  readonly type?: JsonSchemaTypeName | readonly JsonSchemaTypeName[];
  readonly format?: 'date-time';
  readonly enum?: readonly (string | null)[];
  readonly const?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: JsonSchemaObject;
  readonly properties?: Readonly<Record<string, JsonSchemaObject>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly description?: string;
}

declare const valueType: unique symbol;

/**
 * A schema fragment that remembers, for the compiler only, which TypeScript value it describes
 * and whether its property may be absent. The phantom member is invariant in V so that, e.g.,
 * a non-nullable schema cannot stand for a `string | null` property.
 */
interface Field<V, Optional extends boolean = false> {
  readonly schema: JsonSchemaObject;
  readonly optional: Optional;
  readonly [valueType]?: (value: V) => V;
}

/** What the schema builder reads back from any field. */
interface AnyField {
  readonly schema: JsonSchemaObject;
  readonly optional: boolean;
}

type OptionalKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? K : never }[keyof T];

/** One field per property of T, optional exactly where T's property is optional. */
type FieldsOf<T> = {
  readonly [K in keyof T]-?: Field<Exclude<T[K], undefined>, K extends OptionalKeys<T> ? true : false>;
};

function withNote(schema: JsonSchemaObject, note: string | undefined): JsonSchemaObject {
  return note === undefined ? schema : { ...schema, description: note };
}

function field<V>(schema: JsonSchemaObject): Field<V> {
  return { schema, optional: false };
}

function text(note?: string): Field<string> {
  return field(withNote({ type: 'string' }, note));
}

/** ISO-8601 UTC, e.g. 2026-01-01T00:00:00.000Z. */
function timestamp(note?: string): Field<string> {
  return field(withNote({ type: 'string', format: 'date-time' }, note));
}

function integer(note?: string, range: { minimum?: number; maximum?: number } = { minimum: 0 }): Field<number> {
  return field(withNote({ type: 'integer', ...range }, note));
}

function fraction(note?: string): Field<number> {
  return field(withNote({ type: 'number', minimum: 0, maximum: 1 }, note));
}

function oneOf<const V extends string>(values: readonly V[], note?: string): Field<V> {
  return field(withNote({ type: 'string', enum: values }, note));
}

function list<V>(item: Field<V>, note?: string): Field<readonly V[]> {
  return field(withNote({ type: 'array', items: item.schema }, note));
}

function object<T>(fields: FieldsOf<T>, note?: string): Field<T> {
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries<AnyField>(fields)) {
    properties[name] = f.schema;
    if (!f.optional) required.push(name);
  }
  return field(withNote({ type: 'object', properties, required, additionalProperties: false }, note));
}

/** A listed field that can carry null. */
function nullable<V>(f: Field<V>): Field<V | null> {
  const { type, enum: values } = f.schema;
  const types: readonly JsonSchemaTypeName[] = type === undefined ? [] : typeof type === 'string' ? [type] : type;
  return field({
    ...f.schema,
    type: types.includes('null') ? types : [...types, 'null'],
    ...(values === undefined || values.includes(null) ? {} : { enum: [...values, null] }),
  });
}

/** A `?` field of SPEC.md: it may be absent, and "a field without a value can appear as null". */
function optional<V>(f: Field<V>): Field<V | null, true> {
  return { schema: nullable(f).schema, optional: true };
}

/** May be absent but is never null (transcript entry `content` and `t`). */
function omittable<V>(f: Field<V>): Field<V, true> {
  return { schema: f.schema, optional: true };
}

// Notes shared by several payloads.
const PHONE = 'International format with a leading +.';
const PHONE_LEG = 'International format with a leading +; null for a WebRTC room session.';
const CAMPAIGN_LINK = 'Set when the session belongs to a campaign contact.';
const CONTACT_IDENTITY = 'Copied from the contact; null when the contact has none.';
const ROOM_EXTRA = 'Optional on every room event, to join on.';

// ---------------------------------------------------------------------------------------------
// Session events
// ---------------------------------------------------------------------------------------------

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
  /** Absent on turns that are only tool calls. */
  content?: string;
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
interface SessionOutcomeFields {
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

const transcriptEntry = object<TranscriptEntry>({
  role: oneOf(['agent', 'user']),
  content: omittable(text('Absent on turns that are only tool calls.')),
  t: omittable(field<number>({ type: 'number', minimum: 0, description: 'Seconds from session start.' })),
});

const functionInvocation = object<FunctionInvocation>({
  name: text(),
  status: text('Outcome of the call, e.g. succeeded.'),
  duration_ms: integer(),
});

const sessionOutcomeParties: FieldsOf<
  Pick<
    SessionOutcomeFields,
    | 'session_id'
    | 'client_reference_id'
    | 'campaign_id'
    | 'contact_id'
    | 'from_number'
    | 'to_number'
    | 'phone_number'
    | 'email'
    | 'first_name'
    | 'last_name'
  >
> = {
  session_id: text(),
  client_reference_id: nullable(text('Reference passed when the room was created; null when none was passed.')),
  campaign_id: optional(text(CAMPAIGN_LINK)),
  contact_id: optional(text(CAMPAIGN_LINK)),
  from_number: nullable(text(PHONE_LEG)),
  to_number: nullable(text(PHONE_LEG)),
  phone_number: nullable(text(PHONE_LEG)),
  email: optional(text()),
  first_name: optional(text()),
  last_name: optional(text()),
};

const sessionOutcomeResult: FieldsOf<
  Pick<
    SessionOutcomeFields,
    'ended_at' | 'duration_seconds' | 'actual_cost_cents' | 'transcript' | 'transcript_url' | 'function_invocations'
  >
> = {
  ended_at: timestamp(),
  duration_seconds: integer('0 for a call that never connected.'),
  actual_cost_cents: integer('Metered cost in cents; 0 for a call that never connected.'),
  transcript: list(transcriptEntry, 'Empty array when there is none.'),
  transcript_url: optional(
    text('`{base_url}/v1/sessions/<session_id>/transcript.json`; null when there is no transcript.'),
  ),
  function_invocations: list(functionInvocation, 'Summary of agent function calls.'),
};

const END_REASON = 'Why the session ended, e.g. completed or no_answer (not a closed set).';

const sessionCreated = object<SessionCreatedData>({
  session_id: text(),
  to_number: nullable(text(PHONE_LEG)),
  from_number: nullable(text(PHONE_LEG)),
  campaign_id: optional(text(CAMPAIGN_LINK)),
  contact_id: optional(text(CAMPAIGN_LINK)),
  voice_id: text('Voice used by the agent.'),
  status: oneOf(['queued']),
});

const sessionStarted = object<SessionStartedData>({
  session_id: text(),
  started_at: timestamp(),
});

const sessionEnded = object<SessionEndedData>({
  ...sessionOutcomeParties,
  status: oneOf(['completed']),
  end_reason: text(END_REASON),
  started_at: timestamp(),
  ...sessionOutcomeResult,
});

const sessionFailed = object<SessionFailedData>({
  ...sessionOutcomeParties,
  status: oneOf(SESSION_FAILURE_STATUSES),
  end_reason: text(END_REASON),
  started_at: optional(timestamp('Absent or null when the call never connected.')),
  ...sessionOutcomeResult,
});

const sessionDispositionSet = object<SessionDispositionSetData>({
  session_id: text(),
  campaign_id: text(),
  contact_id: text(),
  disposition_code: text(),
  disposition_note: nullable(text('null when the evaluator gave no note.')),
  evaluated_at: timestamp(),
  evaluator: text('Who derived the disposition, e.g. llm.'),
  model: optional(text('Model used by the evaluator, when known.')),
});

const sessionRecordingCompleted = object<SessionRecordingCompletedData>({
  session_id: text(),
  campaign_id: optional(text(CAMPAIGN_LINK)),
  contact_id: optional(text(CAMPAIGN_LINK)),
  from_number: nullable(text(PHONE_LEG)),
  to_number: nullable(text(PHONE_LEG)),
  phone_number: nullable(text(PHONE_LEG)),
  email: optional(text()),
  first_name: optional(text()),
  last_name: optional(text()),
  recording_id: text(),
  status: text('Recording status, e.g. completed.'),
  channels: text('e.g. dual.'),
  started_at: optional(timestamp()),
  ended_at: optional(timestamp()),
  duration_seconds: optional(integer()),
  recording_url: text('Public address of the file under `{recordings_url}`; answers 404 once purged.'),
});

const sessionTransferInitiated = object<SessionTransferInitiatedData>({
  session_id: text(),
  to_number: nullable(text(PHONE_LEG)),
  from_number: nullable(text(PHONE_LEG)),
  transfer_number: text(`Number of the human the call is transferred to. ${PHONE}`),
  transferred_at: timestamp(),
});

const sessionOptOutDetected = object<SessionOptOutDetectedData>({
  session_id: text(),
  phone_number: nullable(text(`${PHONE_LEG} Added to the tenant's do-not-call list.`)),
  detected_at: timestamp(),
});

const sessionOptOutRecordingPendingPurge = object<SessionOptOutRecordingPendingPurgeData>({
  session_id: text(),
  recording_id: text(),
  purge_after: timestamp('End of the grace window (7 days by default).'),
});

const sessionOptOutRecordingPurged = object<SessionOptOutRecordingPurgedData>({
  session_id: text(),
  recording_id: text(),
  purged_at: timestamp(),
});

const sessionConsentRefused = object<SessionConsentRefusedData>({
  session_id: text(),
  refused_at: timestamp(),
});

// ---------------------------------------------------------------------------------------------
// Campaign events
// ---------------------------------------------------------------------------------------------

export const SKIP_REASONS = [
  'invalid',
  'dnc_blocked',
  'daily_cap_reached',
  'quiet_hours_expired',
  'concurrency_full',
  'tenant_suspended',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const CAMPAIGN_RESUME_REASONS = ['quiet_hours_ended', 'manual'] as const;
export type CampaignResumeReason = (typeof CAMPAIGN_RESUME_REASONS)[number];

export interface CampaignCreatedData {
  campaign_id: string;
  name: string;
  channel: string;
  session_type: string;
}

export interface CampaignStartedData {
  campaign_id: string;
  started_at: string;
}

export interface CampaignPausedData {
  campaign_id: string;
  paused_at: string;
  reason: string;
}

export interface CampaignPausedQuietHoursData {
  campaign_id: string;
  paused_at: string;
  next_open_at: string;
}

/** Added by CONTRACT.md: a quiet-hours pause ending by itself, or a manual resume. */
export interface CampaignResumedData {
  campaign_id: string;
  resumed_at: string;
  reason: CampaignResumeReason;
}

export interface CampaignCompletedData {
  campaign_id: string;
  completed_at: string;
  total_contacts: number;
  completed_sessions: number;
  failed_sessions: number;
}

/** The contact identity every campaign.contact_* payload starts with. */
interface CampaignContactFields {
  contact_id: string;
  campaign_id: string;
  phone_number: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

export interface CampaignContactDispatchedData extends CampaignContactFields {
  delivery_row_id: string;
}

export interface CampaignContactCompletedData extends CampaignContactFields {
  session_id: string;
  duration_seconds: number;
  actual_cost_cents: number;
}

export type CampaignContactFailedData = CampaignContactCompletedData;

export interface CampaignContactSkippedData extends CampaignContactFields {
  skip_reason: SkipReason;
}

const campaignContact: FieldsOf<CampaignContactFields> = {
  contact_id: text(),
  campaign_id: text(),
  phone_number: text('As given for the contact; international format with a leading + unless skipped as invalid.'),
  email: nullable(text(CONTACT_IDENTITY)),
  first_name: nullable(text(CONTACT_IDENTITY)),
  last_name: nullable(text(CONTACT_IDENTITY)),
};

const campaignCreated = object<CampaignCreatedData>({
  campaign_id: text(),
  name: text(),
  channel: text('e.g. phone_call.'),
  session_type: text('e.g. phone_call.'),
});

const campaignStarted = object<CampaignStartedData>({
  campaign_id: text(),
  started_at: timestamp(),
});

const campaignPaused = object<CampaignPausedData>({
  campaign_id: text(),
  paused_at: timestamp(),
  reason: text('e.g. manual.'),
});

const campaignPausedQuietHours = object<CampaignPausedQuietHoursData>({
  campaign_id: text(),
  paused_at: timestamp(),
  next_open_at: timestamp('When the earliest remaining contact can be called again.'),
});

const campaignResumed = object<CampaignResumedData>({
  campaign_id: text(),
  resumed_at: timestamp(),
  reason: oneOf(CAMPAIGN_RESUME_REASONS),
});

const campaignCompleted = object<CampaignCompletedData>({
  campaign_id: text(),
  completed_at: timestamp(),
  total_contacts: integer(),
  completed_sessions: integer(),
  failed_sessions: integer(),
});

const campaignContactDispatched = object<CampaignContactDispatchedData>({
  ...campaignContact,
  delivery_row_id: text('The session id for phone campaigns.'),
});

const campaignContactOutcome = object<CampaignContactCompletedData>({
  ...campaignContact,
  session_id: text(),
  duration_seconds: integer(),
  actual_cost_cents: integer(),
});

const campaignContactSkipped = object<CampaignContactSkippedData>({
  ...campaignContact,
  skip_reason: oneOf(SKIP_REASONS),
});

// ---------------------------------------------------------------------------------------------
// Credits events
// ---------------------------------------------------------------------------------------------

export interface CreditsLowBalanceData {
  balance_cents: number;
  threshold_cents: number;
  currency: string;
}

export interface CreditsDepletedData {
  balance_cents: number;
  depleted_at: string;
  currency: string;
}

export interface CreditsTopupSucceededData {
  amount_cents: number;
  new_balance_cents: number;
  currency: string;
  processor_payment_intent_id: string;
}

// A balance can go below zero when a finished call is billed, so balances have no minimum.
const balance = (note: string): Field<number> => integer(note, {});
const currency = (): Field<string> =>
  field({ type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. USD.' });

const creditsLowBalance = object<CreditsLowBalanceData>({
  balance_cents: balance('Balance in cents.'),
  threshold_cents: integer('Warning threshold in cents.'),
  currency: currency(),
});

const creditsDepleted = object<CreditsDepletedData>({
  balance_cents: balance('Balance in cents: 0 or below.'),
  depleted_at: timestamp(),
  currency: currency(),
});

const creditsTopupSucceeded = object<CreditsTopupSucceededData>({
  amount_cents: integer('Amount added, in cents.', { minimum: 1 }),
  new_balance_cents: balance('Balance after the top-up, in cents.'),
  currency: currency(),
  processor_payment_intent_id: text(),
});

// ---------------------------------------------------------------------------------------------
// Voice clone events
// ---------------------------------------------------------------------------------------------

export const VOICE_CLONE_ERROR_CODES = [
  'insufficient_samples',
  'sample_too_short',
  'sample_too_quiet',
  'voice_clone_disabled_on_plan',
] as const;
export type VoiceCloneErrorCode = (typeof VOICE_CLONE_ERROR_CODES)[number];

export interface VoiceCloneTrainingStartedData {
  voice_id: string;
  name: string;
  samples: number;
}

export interface VoiceCloneTrainingSucceededData {
  voice_id: string;
  name: string;
  ready_at: string;
}

export interface VoiceCloneTrainingFailedData {
  voice_id: string;
  name: string;
  error_code: VoiceCloneErrorCode;
  error_message: string;
}

const voiceCloneTrainingStarted = object<VoiceCloneTrainingStartedData>({
  voice_id: text(),
  name: text(),
  samples: integer('Number of uploaded samples.'),
});

const voiceCloneTrainingSucceeded = object<VoiceCloneTrainingSucceededData>({
  voice_id: text(),
  name: text(),
  ready_at: timestamp(),
});

const voiceCloneTrainingFailed = object<VoiceCloneTrainingFailedData>({
  voice_id: text(),
  name: text(),
  error_code: oneOf(VOICE_CLONE_ERROR_CODES),
  error_message: text('Free text.'),
});

// ---------------------------------------------------------------------------------------------
// Room events
// SPEC.md says room payloads carry further fields after room_id and participant_id?, without
// naming them. Payloads stay closed (additionalProperties: false) and every room event also
// accepts participant_id and client_reference_id, optional and nullable: the two room fields
// a receiver would join on.
// ---------------------------------------------------------------------------------------------

interface RoomRefs {
  participant_id?: string | null;
  client_reference_id?: string | null;
}

export interface RoomCreatedData extends RoomRefs {
  room_id: string;
  room_url: string;
  expires_at: string;
}

export interface RoomLandingViewedData extends RoomRefs {
  room_id: string;
  viewed_at: string;
}

export interface RoomJoinedData extends Omit<RoomRefs, 'participant_id'> {
  room_id: string;
  participant_id: string;
  joined_at: string;
}

export interface RoomCompletedData extends RoomRefs {
  room_id: string;
  completed_at: string;
  duration_seconds: number;
}

export interface RoomExpiredData extends RoomRefs {
  room_id: string;
  expired_at: string;
}

export interface RoomFailedData extends RoomRefs {
  room_id: string;
  error_code: string;
  error_message: string;
}

const roomRefs: FieldsOf<RoomRefs> = {
  participant_id: optional(text(ROOM_EXTRA)),
  client_reference_id: optional(text(ROOM_EXTRA)),
};

const roomCreated = object<RoomCreatedData>({
  room_id: text(),
  room_url: text('Signed link for the participant: `{rooms_url}/<room_id>?token=…`.'),
  expires_at: timestamp(),
  ...roomRefs,
});

const roomLandingViewed = object<RoomLandingViewedData>({
  room_id: text(),
  viewed_at: timestamp(),
  ...roomRefs,
});

const roomJoined = object<RoomJoinedData>({
  room_id: text(),
  participant_id: text(),
  joined_at: timestamp(),
  client_reference_id: roomRefs.client_reference_id,
});

const roomCompleted = object<RoomCompletedData>({
  room_id: text(),
  completed_at: timestamp(),
  duration_seconds: integer('End time minus join time.'),
  ...roomRefs,
});

const roomExpired = object<RoomExpiredData>({
  room_id: text(),
  expired_at: timestamp(),
  ...roomRefs,
});

const roomFailed = object<RoomFailedData>({
  room_id: text(),
  error_code: text('e.g. agent_unreachable (not a closed set).'),
  error_message: text('Free text.'),
  ...roomRefs,
});

// ---------------------------------------------------------------------------------------------
// Operations events
// ---------------------------------------------------------------------------------------------

export interface NumberAnswerRateDegradedData {
  phone_number: string;
  answer_rate: number;
  window_start: string;
  window_end: string;
}

export interface FunctionTimeoutData {
  session_id: string;
  function_id: string;
  name: string;
  timeout_ms: number;
}

export interface WebhookTestData {
  endpoint_id: string;
  emitted_at: string;
}

export interface WebhookEndpointDisabledNoticeData {
  endpoint_id: string;
  url: string;
  disabled_at: string;
  failure_streak: number;
  last_status: number | null;
}

const numberAnswerRateDegraded = object<NumberAnswerRateDegradedData>({
  phone_number: text(PHONE),
  answer_rate: fraction('Answered share of inbound calls over the window, between 0 and 1.'),
  window_start: timestamp(),
  window_end: timestamp(),
});

const functionTimeout = object<FunctionTimeoutData>({
  session_id: text(),
  function_id: text(),
  name: text(),
  timeout_ms: integer(),
});

const webhookTest = object<WebhookTestData>({
  endpoint_id: text(),
  emitted_at: timestamp(),
});

const webhookEndpointDisabledNotice = object<WebhookEndpointDisabledNoticeData>({
  endpoint_id: text(),
  url: text(),
  disabled_at: timestamp(),
  failure_streak: integer('Consecutive permanently failed deliveries.'),
  last_status: nullable(
    integer('HTTP status of the last failed delivery; null when it got no response (timeout or network error).', {
      minimum: 100,
      maximum: 599,
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// The catalog
// ---------------------------------------------------------------------------------------------

export type CatalogPayloads = {
  'session.created': SessionCreatedData;
  'session.started': SessionStartedData;
  'session.ended': SessionEndedData;
  'session.failed': SessionFailedData;
  'session.disposition_set': SessionDispositionSetData;
  'session.recording_completed': SessionRecordingCompletedData;
  'session.transfer_initiated': SessionTransferInitiatedData;
  'session.opt_out_detected': SessionOptOutDetectedData;
  'session.opt_out_recording_pending_purge': SessionOptOutRecordingPendingPurgeData;
  'session.opt_out_recording_purged': SessionOptOutRecordingPurgedData;
  'session.consent_refused': SessionConsentRefusedData;
  'campaign.created': CampaignCreatedData;
  'campaign.started': CampaignStartedData;
  'campaign.paused': CampaignPausedData;
  'campaign.paused_quiet_hours': CampaignPausedQuietHoursData;
  'campaign.resumed': CampaignResumedData;
  'campaign.completed': CampaignCompletedData;
  'campaign.contact_dispatched': CampaignContactDispatchedData;
  'campaign.contact_completed': CampaignContactCompletedData;
  'campaign.contact_failed': CampaignContactFailedData;
  'campaign.contact_skipped': CampaignContactSkippedData;
  'credits.low_balance': CreditsLowBalanceData;
  'credits.depleted': CreditsDepletedData;
  'credits.topup_succeeded': CreditsTopupSucceededData;
  'voice_clone.training_started': VoiceCloneTrainingStartedData;
  'voice_clone.training_succeeded': VoiceCloneTrainingSucceededData;
  'voice_clone.training_failed': VoiceCloneTrainingFailedData;
  'room.created': RoomCreatedData;
  'room.landing_viewed': RoomLandingViewedData;
  'room.joined': RoomJoinedData;
  'room.completed': RoomCompletedData;
  'room.expired': RoomExpiredData;
  'room.failed': RoomFailedData;
  'number.answer_rate_degraded': NumberAnswerRateDegradedData;
  'function.timeout': FunctionTimeoutData;
  'webhook.test': WebhookTestData;
  'webhook.endpoint_disabled_notice': WebhookEndpointDisabledNoticeData;
};

interface EventDefinition<T> {
  /** The "When" text of SPEC.md. */
  readonly description: string;
  readonly payload: Field<T>;
  /** A plausible payload, shown in docs/events.md and the OpenAPI document. */
  readonly example: T;
}

// Example values reused across payloads, so the documented events tell one consistent story.
const EX = {
  session: 'ses_01jf8z6q4m2x7c9v3b5n',
  roomSession: 'ses_01jf8zb1t0r6y2u8i4o7',
  campaign: 'cmp_01jf8yk2w9e5r1t7y3u6',
  contact: 'con_01jf8ymc5v2b8n4m6q0w',
  voice: 'voi_01jf8x3e7r9t1y5u2i8o',
  recording: 'rec_01jf8zk3p5a7s9d1f3g5',
  room: 'room_01jf8za8h2j4k6l8z0x2',
  participant: 'par_01jf8za8q1w3e5r7t9y1',
  endpoint: 'we_01jf8w2c4v6b8n0m2q4w',
  customer: '+14155550100',
  callerId: '+14155550199',
  human: '+14155550142',
} as const;

/** Keyed by CatalogPayloads so that a type cannot be added on one side only. */
const DEFINITIONS = {
  'session.created': {
    description: 'A call was queued for dispatch.',
    payload: sessionCreated,
    example: {
      session_id: EX.session,
      to_number: EX.customer,
      from_number: EX.callerId,
      campaign_id: EX.campaign,
      contact_id: EX.contact,
      voice_id: EX.voice,
      status: 'queued',
    },
  },
  'session.started': {
    description: 'The agent picked up and the conversation started; recording starts about now when enabled.',
    payload: sessionStarted,
    example: { session_id: EX.session, started_at: '2026-03-02T17:04:05.120Z' },
  },
  'session.ended': {
    description: 'The call finished with status completed.',
    payload: sessionEnded,
    example: {
      session_id: EX.session,
      client_reference_id: null,
      campaign_id: EX.campaign,
      contact_id: EX.contact,
      from_number: EX.callerId,
      to_number: EX.customer,
      phone_number: EX.customer,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      status: 'completed',
      end_reason: 'completed',
      started_at: '2026-03-02T17:04:05.120Z',
      ended_at: '2026-03-02T17:05:12.480Z',
      duration_seconds: 67,
      actual_cost_cents: 20,
      transcript: [
        { role: 'agent', content: 'Hi Ada, this is Sam from Acme Dental. Do you have a minute?', t: 0.4 },
        { role: 'user', content: 'Sure, go ahead.', t: 4.1 },
        { role: 'agent', t: 6.3 },
        { role: 'agent', content: 'You are booked for Tuesday at 10 am.', t: 7.9 },
      ],
      transcript_url: `https://api.example.com/v1/sessions/${EX.session}/transcript.json`,
      function_invocations: [{ name: 'book_appointment', status: 'succeeded', duration_ms: 412 }],
    },
  },
  'session.failed': {
    description: 'The call finished with status failed, no_answer, voicemail or busy.',
    payload: sessionFailed,
    example: {
      session_id: 'ses_01jf8zc7d3f5g7h9j1k3',
      client_reference_id: null,
      campaign_id: EX.campaign,
      contact_id: 'con_01jf8ymd8c1x3z5v7b9n',
      from_number: EX.callerId,
      to_number: '+14155550101',
      phone_number: '+14155550101',
      email: null,
      first_name: 'Grace',
      last_name: 'Hopper',
      status: 'no_answer',
      end_reason: 'no_answer',
      started_at: null,
      ended_at: '2026-03-02T17:05:35.000Z',
      duration_seconds: 0,
      actual_cost_cents: 0,
      transcript: [],
      transcript_url: null,
      function_invocations: [],
    },
  },
  'session.disposition_set': {
    description:
      'A model derived the disposition of a call placed by an agent in a campaign (asynchronous, after session.ended).',
    payload: sessionDispositionSet,
    example: {
      session_id: EX.session,
      campaign_id: EX.campaign,
      contact_id: EX.contact,
      disposition_code: 'appointment_booked',
      disposition_note: 'Booked for Tuesday at 10 am.',
      evaluated_at: '2026-03-02T17:05:20.904Z',
      evaluator: 'llm',
      model: 'gpt-4o-mini',
    },
  },
  'session.recording_completed': {
    description:
      'The recording was finalised and uploaded to a public file host; lags session.ended by tens of seconds.',
    payload: sessionRecordingCompleted,
    example: {
      session_id: EX.session,
      campaign_id: EX.campaign,
      contact_id: EX.contact,
      from_number: EX.callerId,
      to_number: EX.customer,
      phone_number: EX.customer,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      recording_id: EX.recording,
      status: 'completed',
      channels: 'dual',
      started_at: '2026-03-02T17:04:05.120Z',
      ended_at: '2026-03-02T17:05:12.480Z',
      duration_seconds: 67,
      recording_url: `https://api.example.com/recordings/${EX.recording}.wav`,
    },
  },
  'session.transfer_initiated': {
    description: 'The agent transferred the live call to a human (fires mid-call).',
    payload: sessionTransferInitiated,
    example: {
      session_id: EX.session,
      to_number: EX.customer,
      from_number: EX.callerId,
      transfer_number: EX.human,
      transferred_at: '2026-03-02T17:04:48.310Z',
    },
  },
  'session.opt_out_detected': {
    description:
      "The caller asked not to be called again; the number is added to the tenant's do-not-call list automatically.",
    payload: sessionOptOutDetected,
    example: { session_id: EX.session, phone_number: EX.customer, detected_at: '2026-03-02T17:04:31.007Z' },
  },
  'session.opt_out_recording_pending_purge': {
    description: 'After an opt-out, the recording was flagged for purge at the end of the grace window.',
    payload: sessionOptOutRecordingPendingPurge,
    example: { session_id: EX.session, recording_id: EX.recording, purge_after: '2026-03-09T17:05:40.000Z' },
  },
  'session.opt_out_recording_purged': {
    description: 'The recording was purged; its recording_url answers 404 from now on.',
    payload: sessionOptOutRecordingPurged,
    example: { session_id: EX.session, recording_id: EX.recording, purged_at: '2026-03-09T17:05:41.215Z' },
  },
  'session.consent_refused': {
    description: 'The caller refused recording consent; the call was ended.',
    payload: sessionConsentRefused,
    example: { session_id: EX.session, refused_at: '2026-03-02T17:04:09.650Z' },
  },

  'campaign.created': {
    description: 'A campaign was created; it is still a draft.',
    payload: campaignCreated,
    example: { campaign_id: EX.campaign, name: 'March recall', channel: 'phone_call', session_type: 'phone_call' },
  },
  'campaign.started': {
    description: 'The campaign moved from draft to running.',
    payload: campaignStarted,
    example: { campaign_id: EX.campaign, started_at: '2026-03-02T17:00:00.000Z' },
  },
  'campaign.paused': {
    description: 'The campaign was paused by hand; in-flight calls finish.',
    payload: campaignPaused,
    example: { campaign_id: EX.campaign, paused_at: '2026-03-02T18:30:00.000Z', reason: 'manual' },
  },
  'campaign.paused_quiet_hours': {
    description: 'The campaign paused itself: every remaining contact is inside its local quiet hours.',
    payload: campaignPausedQuietHours,
    example: {
      campaign_id: EX.campaign,
      paused_at: '2026-03-03T05:00:00.000Z',
      next_open_at: '2026-03-03T16:00:00.000Z',
    },
  },
  'campaign.resumed': {
    description: 'A paused campaign is running again: its quiet hours ended, or it was resumed by hand.',
    payload: campaignResumed,
    example: { campaign_id: EX.campaign, resumed_at: '2026-03-03T16:00:00.000Z', reason: 'quiet_hours_ended' },
  },
  'campaign.completed': {
    description: 'Every contact reached a terminal state.',
    payload: campaignCompleted,
    example: {
      campaign_id: EX.campaign,
      completed_at: '2026-03-03T19:12:44.501Z',
      total_contacts: 250,
      completed_sessions: 171,
      failed_sessions: 64,
    },
  },
  'campaign.contact_dispatched': {
    description: 'One contact was handed to the dispatcher and a session created.',
    payload: campaignContactDispatched,
    example: {
      contact_id: EX.contact,
      campaign_id: EX.campaign,
      phone_number: EX.customer,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      delivery_row_id: EX.session,
    },
  },
  'campaign.contact_completed': {
    description: 'A contact reached terminal success.',
    payload: campaignContactOutcome,
    example: {
      contact_id: EX.contact,
      campaign_id: EX.campaign,
      phone_number: EX.customer,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      session_id: EX.session,
      duration_seconds: 67,
      actual_cost_cents: 20,
    },
  },
  'campaign.contact_failed': {
    description:
      'A contact reached terminal failure; the underlying error is in the session.failed event of its session.',
    payload: campaignContactOutcome,
    example: {
      contact_id: 'con_01jf8ymd8c1x3z5v7b9n',
      campaign_id: EX.campaign,
      phone_number: '+14155550101',
      email: null,
      first_name: 'Grace',
      last_name: 'Hopper',
      session_id: 'ses_01jf8zc7d3f5g7h9j1k3',
      duration_seconds: 0,
      actual_cost_cents: 0,
    },
  },
  'campaign.contact_skipped': {
    description: 'A contact was skipped before dispatch and never had a session.',
    payload: campaignContactSkipped,
    example: {
      contact_id: 'con_01jf8ymf2m4n6b8v0c2x',
      campaign_id: EX.campaign,
      phone_number: '+14155550188',
      email: null,
      first_name: null,
      last_name: null,
      skip_reason: 'dnc_blocked',
    },
  },

  'credits.low_balance': {
    description: "The balance fell below the tenant's warning threshold (once per drop, not on every later call).",
    payload: creditsLowBalance,
    example: { balance_cents: 480, threshold_cents: 500, currency: 'USD' },
  },
  'credits.depleted': {
    description: 'The balance reached zero; new dispatches wait until a top-up settles, running calls finish.',
    payload: creditsDepleted,
    example: { balance_cents: 0, depleted_at: '2026-03-02T21:47:03.118Z', currency: 'USD' },
  },
  'credits.topup_succeeded': {
    description: 'A top-up settled with the payment processor; fires after the balance change is committed.',
    payload: creditsTopupSucceeded,
    example: {
      amount_cents: 5000,
      new_balance_cents: 5000,
      currency: 'USD',
      processor_payment_intent_id: 'pi_3PqL8m2eZvKYlo2C1x9a7b5c',
    },
  },

  'voice_clone.training_started': {
    description: 'Samples were uploaded and the training job picked them up.',
    payload: voiceCloneTrainingStarted,
    example: { voice_id: EX.voice, name: 'Support voice', samples: 4 },
  },
  'voice_clone.training_succeeded': {
    description: 'Training finished; the voice can be used in campaigns and sessions.',
    payload: voiceCloneTrainingSucceeded,
    example: { voice_id: EX.voice, name: 'Support voice', ready_at: '2026-03-01T09:14:52.330Z' },
  },
  'voice_clone.training_failed': {
    description: 'Training failed; error_code says why.',
    payload: voiceCloneTrainingFailed,
    example: {
      voice_id: 'voi_01jf8x4r2t6y8u0i2o4p',
      name: 'Sales voice',
      error_code: 'insufficient_samples',
      error_message: 'At least 3 samples of 30 seconds each are needed.',
    },
  },

  'room.created': {
    description: 'A WebRTC room was created and a signed URL minted for the participant.',
    payload: roomCreated,
    example: {
      room_id: EX.room,
      room_url: `https://api.example.com/rooms/${EX.room}?token=eyJyIjoicm9vbV8wMWpmOHphOGgyajRrNmw4ejB4MiJ9.c2ln`,
      expires_at: '2026-03-02T18:00:00.000Z',
      participant_id: EX.participant,
      client_reference_id: 'order-84213',
    },
  },
  'room.landing_viewed': {
    description: 'The participant opened the room URL and has not joined yet (once per room).',
    payload: roomLandingViewed,
    example: { room_id: EX.room, viewed_at: '2026-03-02T17:10:02.775Z' },
  },
  'room.joined': {
    description: 'The participant accepted microphone access and joined; the agent is connected.',
    payload: roomJoined,
    example: {
      room_id: EX.room,
      participant_id: EX.participant,
      joined_at: '2026-03-02T17:10:09.412Z',
      client_reference_id: 'order-84213',
    },
  },
  'room.completed': {
    description: 'Both sides hung up cleanly.',
    payload: roomCompleted,
    example: {
      room_id: EX.room,
      completed_at: '2026-03-02T17:14:21.090Z',
      duration_seconds: 251,
      participant_id: EX.participant,
      client_reference_id: 'order-84213',
    },
  },
  'room.expired': {
    description: 'expires_at passed and nobody joined.',
    payload: roomExpired,
    example: { room_id: 'room_01jf8zf4g6h8j0k2l4z6', expired_at: '2026-03-02T18:00:00.000Z' },
  },
  'room.failed': {
    description: 'Room setup could not finish, for example relay authentication failed or the agent is unreachable.',
    payload: roomFailed,
    example: {
      room_id: 'room_01jf8zg8x0c2v4b6n8m0',
      error_code: 'agent_unreachable',
      error_message: 'The agent did not answer within 10 seconds.',
    },
  },

  'number.answer_rate_degraded': {
    description: "An inbound number's answer rate fell below 80% over a rolling 24 hours.",
    payload: numberAnswerRateDegraded,
    example: {
      phone_number: EX.callerId,
      answer_rate: 0.62,
      window_start: '2026-03-01T17:00:00.000Z',
      window_end: '2026-03-02T17:00:00.000Z',
    },
  },
  'function.timeout': {
    description:
      'An agent function call exceeded its timeout; the agent tells the caller it is still working and the conversation continues.',
    payload: functionTimeout,
    example: { session_id: EX.session, function_id: 'fn_lookup_order', name: 'lookup_order', timeout_ms: 5000 },
  },
  'webhook.test': {
    description: 'Synthetic event sent by POST /v1/webhook_endpoints/{id}/test to that endpoint only.',
    payload: webhookTest,
    example: { endpoint_id: EX.endpoint, emitted_at: '2026-03-02T16:58:00.250Z' },
  },
  'webhook.endpoint_disabled_notice': {
    description:
      'The endpoint was suspended automatically after repeated permanent delivery failures; an e-mail notice is sent too.',
    payload: webhookEndpointDisabledNotice,
    example: {
      endpoint_id: EX.endpoint,
      url: 'https://hooks.example.com/voice',
      disabled_at: '2026-03-03T11:20:07.981Z',
      failure_streak: 10,
      last_status: 503,
    },
  },
} as const satisfies { readonly [K in keyof CatalogPayloads]: EventDefinition<CatalogPayloads[K]> };

export type CatalogEventType = keyof typeof DEFINITIONS;

type GroupOf<T extends string> = T extends `${infer G}.${string}` ? G : never;
/** The part of a type before its first dot: session, campaign, credits, voice_clone, room, … */
export type CatalogGroup = GroupOf<CatalogEventType>;

/** Typed data for producers: `{ type: 'session.created', data: SessionCreatedData } | …`. */
export type CatalogEvent = { [K in CatalogEventType]: { type: K; data: CatalogPayloads[K] } }[CatalogEventType];

export interface CatalogEntry {
  readonly type: CatalogEventType;
  readonly group: CatalogGroup;
  /** When the event fires (the "When" text of SPEC.md). */
  readonly description: string;
  readonly schema: JsonSchemaObject;
  /** A payload that validates against `schema`. */
  readonly example: Readonly<Record<string, unknown>>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function groupOf(type: CatalogEventType): CatalogGroup {
  return type.slice(0, type.indexOf('.')) as CatalogGroup;
}

export const CATALOG_EVENT_TYPES: readonly CatalogEventType[] = Object.freeze(
  Object.keys(DEFINITIONS) as CatalogEventType[],
);

export const EVENT_CATALOG: readonly CatalogEntry[] = deepFreeze(
  CATALOG_EVENT_TYPES.map((type): CatalogEntry => {
    const { description, payload, example } = DEFINITIONS[type];
    return { type, group: groupOf(type), description, schema: payload.schema, example };
  }),
);

export const CATALOG_GROUPS: readonly CatalogGroup[] = Object.freeze([...new Set(EVENT_CATALOG.map((e) => e.group))]);

/** Headings for docs and OpenAPI tags. */
export const CATALOG_GROUP_TITLES: Readonly<Record<CatalogGroup, string>> = Object.freeze({
  session: 'Session events',
  campaign: 'Campaign events',
  credits: 'Credits events',
  voice_clone: 'Voice clone events',
  room: 'Room events',
  number: 'Phone number events',
  function: 'Agent function events',
  webhook: 'Webhook endpoint events',
});

const ENTRIES = new Map<string, CatalogEntry>(EVENT_CATALOG.map((e) => [e.type, e]));
const GROUPS = new Set<string>(CATALOG_GROUPS);

export function isCatalogType(type: string): type is CatalogEventType {
  return ENTRIES.has(type);
}

export function catalogEntry(type: string): CatalogEntry | undefined {
  return ENTRIES.get(type);
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

/** ISO-8601 in UTC (`Z`), optional fraction; rejects impossible dates such as Feb 30. */
export function isUtcDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  if (
    y === undefined ||
    mo === undefined ||
    d === undefined ||
    h === undefined ||
    mi === undefined ||
    s === undefined
  ) {
    return false;
  }
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

let validators: Map<string, ValidateFunction> | undefined;

/** Compiled on first use, all at once, so a broken schema fails the first validation loudly. */
function validatorFor(type: string): ValidateFunction | undefined {
  if (validators === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addFormat('date-time', { type: 'string', validate: isUtcDateTime });
    validators = new Map(EVENT_CATALOG.map((e) => [e.type, ajv.compile(e.schema)]));
  }
  return validators.get(type);
}

function formatError(error: ErrorObject): string {
  const at = `data${error.instancePath}`;
  const message = error.message ?? 'is invalid';
  const params: Record<string, unknown> = error.params;
  const extra = params['additionalProperty'];
  return typeof extra === 'string' ? `${at} ${message}: '${extra}'` : `${at} ${message}`;
}

/** Validates `data` against the payload schema of `type`. Empty array: valid. */
export function validatePayload(type: string, data: unknown): string[] {
  const validate = validatorFor(type);
  if (validate === undefined) return [`unknown event type '${type}'`];
  if (validate(data)) return [];
  return [...new Set((validate.errors ?? []).map(formatError))];
}

// ---------------------------------------------------------------------------------------------
// Subscription filters: `*`, an exact catalog type, or `group.*`
// ---------------------------------------------------------------------------------------------

function isFilterEntry(entry: string): boolean {
  if (entry === '*') return true;
  if (entry.endsWith('.*')) return GROUPS.has(entry.slice(0, -2));
  return ENTRIES.has(entry);
}

/** Checks every entry; an empty list is syntactically fine (what it means is the caller's policy). */
export function parseEventFilter(entries: readonly string[]): { ok: true } | { ok: false; invalid: string[] } {
  const invalid = entries.filter((entry) => !isFilterEntry(entry));
  return invalid.length === 0 ? { ok: true } : { ok: false, invalid };
}

export function matchesEventFilter(filter: readonly string[], type: string): boolean {
  return filter.some(
    (entry) => entry === '*' || entry === type || (entry.endsWith('.*') && type.startsWith(entry.slice(0, -1))),
  );
}

// ---------------------------------------------------------------------------------------------
// Deterministic key order
// ---------------------------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function orderBySchema(schema: JsonSchemaObject | undefined, value: unknown): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value))
    return schema.items === undefined ? value : value.map((v) => orderBySchema(schema.items, v));
  if (!isPlainObject(value) || schema.properties === undefined) return value;
  const properties = schema.properties;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (Object.hasOwn(value, key)) out[key] = orderBySchema(properties[key], value[key]);
  }
  for (const [key, v] of Object.entries(value)) {
    if (!Object.hasOwn(properties, key)) out[key] = v;
  }
  return out;
}

/**
 * A copy of `data` with keys in the schema's property order (nested transcript and function
 * entries too), unknown keys after in their original order. Unknown types keep their order.
 */
export function orderPayloadKeys(type: string, data: Record<string, unknown>): Record<string, unknown> {
  const schema = ENTRIES.get(type)?.schema ?? { properties: {} };
  const ordered = orderBySchema(schema, data);
  return isPlainObject(ordered) ? ordered : { ...data };
}
