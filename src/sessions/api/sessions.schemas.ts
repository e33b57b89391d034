/**
 * The response schemas of the sessions API, checked by the compiler against what the presenters
 * return (`FieldsOf` of the presented type: a field added, dropped or made nullable there fails the
 * build here). Named schemas become `components.schemas` (src/openapi-finish.ts).
 */
import { listOf, named, pageOf } from '../../kernel/http/api-docs';
import { ANY_ENVELOPE_SCHEMA } from '../../catalog/envelope';
import {
  field,
  integer,
  list,
  nullable,
  object,
  oneOf,
  text,
  timestamp,
  type FieldsOf,
} from '../../catalog/payload-schema';
import {
  type AnsweringMachineDetection,
  type CallAnalysis,
  callAnalysis,
  functionInvocation,
  SESSION_STATUSES,
  type TranscriptEntry,
  transcriptEntry,
} from '../sessions.events';
import { MAX_ANALYSIS_SCHEMA_BYTES } from '../domain/analysis-schema';
import type { SessionResource } from '../application/get-session.query';
import type { AgentDisposition } from '../application/session-view';
import type { SessionMetrics } from '../application/session-metrics';
import type { TurnMetrics } from '../domain/media-signal';

const PHONE = 'International format with a leading +.';
const RECORDING_STATUSES = ['available', 'pending_purge', 'purged'];

const sessionFields: FieldsOf<SessionResource> = {
  session_id: text('The session id (`ses_…`).'),
  client_reference_id: nullable(text('Your reference, from the room or the campaign contact.')),
  campaign_id: nullable(text('Set when the session belongs to a campaign contact.')),
  contact_id: nullable(text('Set when the session belongs to a campaign contact.')),
  direction: oneOf(['outbound', 'inbound']),
  from_number: nullable(text(`${PHONE} null for a WebRTC room session.`)),
  to_number: nullable(text(`${PHONE} null for a WebRTC room session.`)),
  phone_number: nullable(text('The other party: the callee of an outbound call, the caller of an inbound one.')),
  email: nullable(text()),
  first_name: nullable(text()),
  last_name: nullable(text()),
  voice_id: text(),
  status: field<string>({ type: 'string', enum: SESSION_STATUSES }),
  hold_reason: nullable(
    text(
      'Why a queued session waits instead of going out, null when it does not: `insufficient_credits` while the ' +
        'tenant’s balance is depleted, `carrier_limit` while the SIP trunk’s call budget (SIP_CPS, SIP_MAX_CALLS) is full ' +
        '(docs/calls-and-test-pool.md), `concurrency_limit` while the tenant has TENANT_MAX_CALLS calls at once, ' +
        '`capacity` while the instance that places it carries all the conversations it can (docs/capacity.md). ' +
        'The set may grow: treat an unknown value as held.',
    ),
  ),
  end_reason: nullable(text('Why the session ended, e.g. completed or no_answer (not a closed set).')),
  test_mode: field<boolean>({ type: 'boolean' }),
  created_at: timestamp(),
  started_at: nullable(timestamp()),
  ended_at: nullable(timestamp()),
  duration_seconds: integer(),
  actual_cost_cents: integer(),
  transcript: field<TranscriptEntry[]>(list(transcriptEntry).schema),
  transcript_url: nullable(text('The transcript as JSON; null while there is none.')),
  function_invocations: field<unknown[]>(list(functionInvocation).schema),
  metrics: object<SessionMetrics>({
    turns: list(
      object<TurnMetrics>({
        t: field<number>({ type: 'number', minimum: 0, description: 'Seconds from session start (ms precision).' }),
        user_speech_end_ms: integer('When the user stopped speaking, ms from session start.'),
        agent_audio_start_ms: integer('When the agent’s first audio frame went out, ms from session start.'),
        voice_to_voice_ms: integer('From the end of the user’s speech to the agent’s first audio frame.'),
        stt_ms: integer('Time in speech recognition.'),
        llm_first_token_ms: integer('From the transcript to the dialogue’s first words (the model, or built-in).'),
        tts_first_audio_ms: integer('From the first words to the first synthesised audio.'),
        interrupted: field<boolean>({
          type: 'boolean',
          description: 'The user spoke over this answer and it was cut.',
        }),
      }),
      'Each measured agent turn, in order; empty when none was (a simulated call).',
    ),
    voice_to_voice_ms: object<SessionMetrics['voice_to_voice_ms']>({
      p50: field<number | null>({ type: ['integer', 'null'], description: 'Nearest rank; null with no turn.' }),
      p95: field<number | null>({ type: ['integer', 'null'], description: 'Nearest rank; null with no turn.' }),
    }),
  }),
  transfer_number: nullable(text('The number the call was transferred to, if it was.')),
  agent_disposition: field<AgentDisposition | null>({
    type: ['object', 'null'],
    description: 'The agent’s own disposition of the call, if it gave one.',
    properties: {
      code: { type: 'string' },
      note: { type: ['string', 'null'] },
      given_at: { type: 'string', format: 'date-time' },
    },
    required: ['code', 'note', 'given_at'],
    additionalProperties: false,
  }),
  analysis: field<CallAnalysis | null>({
    ...nullable(callAnalysis).schema,
    description:
      'The post-call analysis the agent asked for (`agent_config.analysis`), as `session.analysis_completed` delivered it; null until it is done (shortly after the end), and for a call that gets none (no plan, never answered, no transcript).',
  }),
  amd: field<AnsweringMachineDetection | null>({
    type: ['object', 'null'],
    properties: {
      result: { type: 'string', enum: ['human', 'machine', 'unknown'] },
      decided_after_ms: { type: 'integer', minimum: 0 },
    },
    required: ['result', 'decided_after_ms'],
    additionalProperties: false,
    description:
      'Who answered an outbound call, as its answering-machine detection decided (`agent_config.voicemail.detect`), and after how many ms of the callee’s audio; null when the call was not screened (inbound, rooms, test calls, detection off, never answered).',
  }),
  voicemail_message_left: field<boolean>({
    type: 'boolean',
    description: 'An answering machine took the call and the agent left its `voicemail.message` after the beep.',
  }),
  recording: nullable(
    object<{ recording_id: string; status: string | null; recording_url: string | null }>({
      recording_id: text(),
      status: field<string | null>({ type: ['string', 'null'], enum: [...RECORDING_STATUSES, null] }),
      recording_url: nullable(text('A signed link that expires; null once the recording is purged.')),
    }),
  ),
};

export const SESSION = named('Session', object<SessionResource>(sessionFields).schema);
export const SESSION_PAGE = pageOf('SessionPage', SESSION);

export const SESSION_EVENTS = listOf('SessionEventList', ANY_ENVELOPE_SCHEMA);

export const TRANSCRIPT = named('Transcript', {
  type: 'object',
  properties: { session_id: { type: 'string' }, transcript: list(transcriptEntry).schema },
  required: ['session_id', 'transcript'],
  additionalProperties: false,
});

export const RECORDING_LINK = named('RecordingLink', {
  type: 'object',
  properties: {
    recording_id: { type: 'string' },
    recording_url: { type: 'string', description: 'A signed link to the WAV file.' },
    expires_at: { type: 'string', format: 'date-time' },
  },
  required: ['recording_id', 'recording_url', 'expires_at'],
  additionalProperties: false,
});

export const SESSION_EXAMPLE = {
  session_id: 'ses_01jd8x6k2m3n4p5q6r7s8t9v0w',
  client_reference_id: null,
  campaign_id: null,
  contact_id: null,
  direction: 'outbound',
  from_number: '+14155550000',
  to_number: '+14155550100',
  phone_number: '+14155550100',
  email: null,
  first_name: null,
  last_name: null,
  voice_id: 'voice_default',
  status: 'queued',
  hold_reason: null,
  end_reason: null,
  test_mode: true,
  created_at: '2026-11-21T10:00:00.000Z',
  started_at: null,
  ended_at: null,
  duration_seconds: 0,
  actual_cost_cents: 0,
  transcript: [],
  transcript_url: null,
  function_invocations: [],
  metrics: { turns: [], voice_to_voice_ms: { p50: null, p95: null } },
  transfer_number: null,
  agent_disposition: null,
  analysis: null,
  amd: null,
  voicemail_message_left: false,
  recording: null,
};

/** The agent as the platform keeps it (campaigns, rooms and numbers show it as given). */
export const AGENT_CONFIG = named('AgentConfig', {
  type: 'object',
  properties: {
    prompt: { type: 'string', description: 'The agent’s instructions.' },
    voice_id: { type: 'string', description: 'A voice clone id, or `voice_default`.' },
    dispositions: {
      type: 'array',
      items: {
        type: 'object',
        properties: { code: { type: 'string' }, description: { type: 'string' } },
        required: ['code', 'description'],
        additionalProperties: false,
      },
    },
    first_message: { type: 'string', description: 'Spoken when the conversation starts.' },
    language: { type: 'string', description: 'BCP 47; absent means en-US.' },
    transfer_number: { type: 'string', description: 'E.164: where the agent may transfer the call.' },
    transfer_mode: {
      type: 'string',
      enum: ['cold', 'warm'],
      description: 'Absent means cold (a REFER); warm: the agent briefs whoever answers, then bridges the caller.',
    },
    transfer_summary: { type: 'string', description: 'Warm transfers: what the person who answers is told first.' },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          parameters: { type: 'object', additionalProperties: true, description: 'A JSON Schema object.' },
          url: { type: 'string' },
          timeout_ms: { type: 'integer', description: 'Absent means 5000.' },
        },
        required: ['name', 'url'],
        additionalProperties: false,
      },
    },
    max_duration_seconds: { type: 'integer', description: 'Absent means 3600.' },
    endpointing_ms: {
      type: 'integer',
      description: 'The silence that ends the caller’s turn; absent: 500, or a streaming recogniser’s own.',
    },
    interruptible: { type: 'boolean', description: 'Absent means true.' },
    analysis: {
      type: 'object',
      description: 'What is analysed once the call has ended (docs/conversations-api.md, "Post-call analysis").',
      properties: {
        summary: { type: 'boolean', description: 'true: a short summary of the call.' },
        structured_data: {
          type: 'object',
          additionalProperties: true,
          description: `A JSON Schema (draft-07, or 2020-12 by its $schema; at most ${MAX_ANALYSIS_SCHEMA_BYTES} bytes as JSON) of the data to extract.`,
        },
        success_criteria: { type: 'string', description: 'What makes the call a success, judged by the model.' },
      },
      additionalProperties: false,
    },
    voicemail: {
      type: 'object',
      description:
        'Outbound calls: answering-machine detection and the message left after the beep (docs/telephony.md).',
      properties: {
        detect: {
          type: 'boolean',
          description: 'Absent means true: the agent holds its greeting until it knows who answered.',
        },
        message: {
          type: 'string',
          description: 'Spoken after a machine’s beep, then the call ends; absent: a machine is hung up on.',
        },
      },
      additionalProperties: false,
    },
  },
  required: ['prompt'],
  additionalProperties: false,
});
