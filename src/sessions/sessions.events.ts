/** The sessions context's part of the event catalog: session.* and function.timeout. */
import { defineEvents } from '../catalog/event-fragment';
import {
  field,
  type FieldsOf,
  integer,
  list,
  nullable,
  object,
  omittable,
  oneOf,
  optional,
  text,
  timestamp,
} from '../catalog/payload-schema';
import { SESSION_FAILURE_STATUSES, TRANSFER_FAILURE_REASONS } from './sessions.payloads';
import type {
  SessionOutcomeFields,
  TranscriptEntry,
  FunctionInvocation,
  SessionCreatedData,
  SessionStartedData,
  SessionEndedData,
  SessionFailedData,
  SessionDispositionSetData,
  SessionAnalysisCompletedData,
  CallAnalysis,
  SessionRecordingCompletedData,
  SessionTransferInitiatedData,
  SessionTransferFailedData,
  SessionOptOutDetectedData,
  SessionOptOutRecordingPendingPurgeData,
  SessionOptOutRecordingPurgedData,
  SessionConsentRefusedData,
  FunctionTimeoutData,
  SessionPayloads,
} from './sessions.payloads';

export * from './sessions.payloads';

const PHONE = 'International format with a leading +.';
const PHONE_LEG = 'International format with a leading +; null for a WebRTC room session.';
const CAMPAIGN_LINK = 'Set when the session belongs to a campaign contact.';

export const transcriptEntry = object<TranscriptEntry>({
  role: oneOf(['agent', 'user']),
  content: omittable(
    text(
      "What was said; empty only on a keypad turn (see dtmf). A turn without words (one that is only a tool call) is not kept: the call is in function_invocations. Absent only on a private session's turns (a number verification call), whose words are not kept.",
    ),
  ),
  dtmf: omittable(text('The keys the caller pressed (0-9, *, #, A-D), on a user turn whose content is empty.')),
  t: omittable(field<number>({ type: 'number', minimum: 0, description: 'Seconds from session start.' })),
});

export const functionInvocation = object<FunctionInvocation>({
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
  voicemail_message_left: omittable(
    field<boolean>({
      type: 'boolean',
      description:
        "With status voicemail: true when the agent spoke its voicemail.message after the machine's beep; absent otherwise.",
    }),
  ),
});

const sessionDispositionSet = object<SessionDispositionSetData>({
  session_id: text(),
  campaign_id: text(),
  contact_id: text(),
  disposition_code: text(),
  disposition_note: nullable(text('null when the evaluator gave no note.')),
  evaluated_at: timestamp(),
  evaluator: text(
    'Who derived the disposition: llm (a language model) or simulator (the built-in deterministic evaluator, used for test-mode calls and when no model is configured).',
  ),
  model: optional(text('The model the llm evaluator asked (`LLM_MODEL`); null for the built-in evaluator.')),
});

export const callAnalysis = object<CallAnalysis>({
  summary: nullable(
    text(
      'A short summary of the call; null when the agent did not ask for one (`analysis.summary`). Written by the model at LLM_URL, or by the built-in analysis (test-pool calls, no LLM_URL): the first and last things the caller said and how the call ended.',
    ),
  ),
  structured_data: field<unknown>({
    description:
      'Any JSON value (null included): the data the agent asked for, conforming to its `analysis.structured_data` JSON Schema (usually an object); null when it asked for none, when the built-in analysis ran (it extracts nothing), or when no model answer conformed after the retries.',
  }),
  success: field<boolean | null>({
    type: ['boolean', 'null'],
    description:
      "Whether the call met the agent's `analysis.success_criteria`, as the model judged it; null when there are no criteria or when the built-in analysis ran (it does not judge).",
  }),
});

const sessionAnalysisCompleted = object<SessionAnalysisCompletedData>({
  session_id: text(),
  analysis: callAnalysis,
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
  recording_url: text(
    'Signed link to the file under `{recordings_url}`, valid for `RECORDING_URL_TTL` (default 7 days); `GET /v1/sessions/{session_id}/recording` gives a fresh one. Answers 404 once purged.',
  ),
});

const sessionTransferInitiated = object<SessionTransferInitiatedData>({
  session_id: text(),
  to_number: nullable(text(PHONE_LEG)),
  from_number: nullable(text(PHONE_LEG)),
  transfer_number: text(`Number of the human the call is transferred to. ${PHONE}`),
  transferred_at: timestamp(),
});

const sessionTransferFailed = object<SessionTransferFailedData>({
  session_id: text(),
  transfer_number: text(`Where the call was to be transferred. ${PHONE}`),
  reason: oneOf(
    TRANSFER_FAILURE_REASONS,
    "refused: the carrier or the caller's side answered the REFER with 4xx/6xx; target_failed: the target did not take the call (a failing NOTIFY sipfrag, or the warm transfer's second call failed); no_answer: nothing answered within 30 s; not_supported: this kind of call cannot be transferred.",
  ),
  sip_code: nullable(
    integer("The SIP status that said so (the REFER's answer or the sipfrag's); null when none came."),
  ),
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

const functionTimeout = object<FunctionTimeoutData>({
  session_id: text(),
  function_id: text(),
  name: text(),
  timeout_ms: integer(),
});

// Example values shared with the other contexts' examples, so the documented events tell one consistent story.
const EX = {
  session: 'ses_01jf8z6q4m2x7c9v3b5n',
  campaign: 'cmp_01jf8yk2w9e5r1t7y3u6',
  contact: 'con_01jf8ymc5v2b8n4m6q0w',
  voice: 'voi_01jf8x3e7r9t1y5u2i8o',
  recording: 'rec_01jf8zk3p5a7s9d1f3g5',
  customer: '+14155550100',
  callerId: '+14155550199',
  human: '+14155550142',
} as const;

export const sessionEvents = defineEvents<SessionPayloads>({
  groups: { session: 'Session events', function: 'Agent function events' },
  events: {
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
        'A model derived the disposition of a call placed by an agent in a campaign (asynchronous, after session.ended; at most once per session).',
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
    'session.analysis_completed': {
      description:
        "The call was analysed as its agent's `analysis` asked: summary, structured data, success (asynchronous, after session.ended or session.failed of a call that was answered and has a transcript; at most once per session).",
      payload: sessionAnalysisCompleted,
      example: {
        session_id: EX.session,
        analysis: {
          summary: 'Ada agreed to a cleaning and was booked for Tuesday at 10 am.',
          structured_data: { appointment_booked: true, preferred_day: 'Tuesday' },
          success: true,
        },
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
        recording_url: `https://api.example.com/recordings/${EX.recording}.wav?expires=1773076000&signature=0rZ7qvzb3iC1pXhJm5wQ8dT2kLaNfYgUo4sEcV6yB9M`,
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
    'session.transfer_failed': {
      description:
        'A transfer did not go through; the caller stays with the agent, who says so, and the call goes on (fires mid-call, after session.transfer_initiated).',
      payload: sessionTransferFailed,
      example: { session_id: EX.session, transfer_number: EX.human, reason: 'refused', sip_code: 603 },
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
    'function.timeout': {
      description:
        'An agent function call exceeded its timeout; the agent tells the caller it is still working and the conversation continues.',
      payload: functionTimeout,
      example: { session_id: EX.session, function_id: 'fn_lookup_order', name: 'lookup_order', timeout_ms: 5000 },
    },
  },
});
