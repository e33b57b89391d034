import { defineEdge } from '../../kernel/event-edge';
import type { SessionEvent } from './session.state';

/** What a session's terminal events (`session.ended`, `session.failed`) both carry. */
const outcome = {
  status: true,
  session_id: true,
  client_reference_id: true,
  from_number: true,
  to_number: true,
  phone_number: true,
  end_reason: true,
  ended_at: true,
  duration_seconds: true,
  actual_cost_cents: true,
  transcript: true,
  function_invocations: true,
} as const;

/** A session's stored events read back (event-edge.ts): each type's required fields, older shapes upcast. */
export const sessionEdge = defineEdge<SessionEvent>(
  {
    'session.placed': {
      session_id: true,
      to_number: true,
      from_number: true,
      agent_config: true,
      voice_id: true,
      test_mode: true,
      campaign_id: true,
      contact_id: true,
      client_reference_id: true,
      direction: true,
      email: true,
      first_name: true,
      last_name: true,
    },
    'session.created': { session_id: true, to_number: true, from_number: true, voice_id: true, status: true },
    'session.signal_applied': { seq: true, kind: true },
    'session.started': { session_id: true, started_at: true },
    'session.transcript_appended': { entry: true },
    'session.turn_measured': { turn: true },
    'session.function_invoked': { invocation: true },
    'session.agent_disposition_given': { code: true, note: true, at: true },
    'function.timeout': { session_id: true, function_id: true, name: true, timeout_ms: true },
    'session.transfer_initiated': {
      session_id: true,
      to_number: true,
      from_number: true,
      transfer_number: true,
      transferred_at: true,
    },
    'session.transfer_failed': { session_id: true, transfer_number: true, reason: true, sip_code: true },
    'session.opt_out_detected': { session_id: true, phone_number: true, detected_at: true },
    'session.consent_refused': { session_id: true, refused_at: true },
    'session.ended': { ...outcome, started_at: true },
    'session.failed': outcome,
    'session.disposition_set': {
      session_id: true,
      campaign_id: true,
      contact_id: true,
      disposition_code: true,
      disposition_note: true,
      evaluated_at: true,
      evaluator: true,
    },
    'session.analysis_requested': { session_id: true },
    'session.amd_decided': { result: true, decided_after_ms: true },
    'session.analysis_completed': { session_id: true, analysis: true },
    'session.recording_completed': {
      session_id: true,
      from_number: true,
      to_number: true,
      phone_number: true,
      recording_id: true,
      status: true,
      channels: true,
      recording_url: true,
    },
    'session.opt_out_recording_pending_purge': { session_id: true, recording_id: true, purge_after: true },
    'session.opt_out_recording_purged': { session_id: true, recording_id: true, purged_at: true },
    'session.dispatch_held': { session_id: true, reason: true },
    'session.dispatch_released': { session_id: true },
  },
  {
    // Stored without a direction: a room's session is inbound (the participant came to the agent), a
    // phone call's (stored before inbound calls) outbound. Stored before campaigns: no contact identity.
    'session.placed': (data) =>
      data.direction !== undefined && data.email !== undefined
        ? data
        : {
            direction: data.room_id ? 'inbound' : 'outbound',
            email: null,
            first_name: null,
            last_name: null,
            ...data,
          },
  },
);
