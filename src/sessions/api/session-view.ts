import type { AppConfig } from '../../config/config';
import type { StoredEvent } from '../../event-store/event-store.port';
import { fold } from '../../kernel/decider';
import { sessionDecider, type SessionEvent } from '../domain/session.decider';

export interface SessionRow {
  session_id: string;
  status: string;
  to_number: string | null;
  from_number: string | null;
  campaign_id: string | null;
  contact_id: string | null;
  client_reference_id: string | null;
  voice_id: string;
  test_mode: boolean;
  end_reason: string | null;
  created_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  duration_seconds: number;
  actual_cost_cents: number;
  transcript: unknown[];
  function_invocations: unknown[];
  transfer_number: string | null;
  agent_disposition: unknown;
  recording_id: string | null;
  recording_status: string | null;
  recording_url: string | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The Session resource of SPEC.md, plus test_mode, created_at and the recording. */
export function presentSession(row: SessionRow, config: AppConfig) {
  return {
    session_id: row.session_id,
    client_reference_id: row.client_reference_id,
    campaign_id: row.campaign_id,
    contact_id: row.contact_id,
    from_number: row.from_number,
    to_number: row.to_number,
    phone_number: row.to_number,
    email: null,
    first_name: null,
    last_name: null,
    voice_id: row.voice_id,
    status: row.status,
    end_reason: row.end_reason,
    test_mode: row.test_mode,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    ended_at: iso(row.ended_at),
    duration_seconds: row.duration_seconds,
    actual_cost_cents: row.actual_cost_cents,
    // Key order as in the webhooks: role, content, t.
    transcript: (row.transcript as { role: string; content?: string; t?: number }[]).map(({ role, content, t }) => ({
      role,
      ...(content !== undefined ? { content } : {}),
      ...(t !== undefined ? { t } : {}),
    })),
    transcript_url:
      row.transcript.length > 0 ? `${config.baseUrl}/v1/sessions/${row.session_id}/transcript.json` : null,
    function_invocations: row.function_invocations,
    transfer_number: row.transfer_number,
    agent_disposition: row.agent_disposition ?? null,
    recording:
      row.recording_id === null
        ? null
        : {
            recording_id: row.recording_id,
            status: row.recording_status,
            recording_url: row.recording_status === 'purged' ? null : row.recording_url,
          },
  };
}

/**
 * The same row folded from the session's own stream, for the moment between a write and the read
 * model catching up (read-your-writes without making the write wait). Null for another tenant.
 */
export function sessionRowFromStream(events: readonly StoredEvent[], tenantId: string): SessionRow | null {
  const placed = events[0];
  if (!placed || placed.type !== 'session.placed' || placed.metadata.tenant_id !== tenantId) return null;
  const state = fold(sessionDecider, events as unknown as SessionEvent[]);
  if (state.status === 'none') return null;
  const request = (placed as unknown as Extract<SessionEvent, { type: 'session.placed' }>).data;
  const ended = events.find((e) => e.type === 'session.ended' || e.type === 'session.failed');
  const outcome = ended?.data as { end_reason?: string; actual_cost_cents?: number } | undefined;
  return {
    session_id: state.sessionId,
    status: state.status,
    to_number: state.to,
    from_number: state.from,
    campaign_id: state.campaignId,
    contact_id: state.contactId,
    client_reference_id: state.clientReferenceId,
    voice_id: request.voice_id,
    test_mode: state.testMode,
    end_reason: outcome?.end_reason ?? null,
    created_at: new Date(placed.metadata.created_at),
    started_at: state.startedAt ? new Date(state.startedAt) : null,
    ended_at: state.endedAt ? new Date(state.endedAt) : null,
    duration_seconds: state.durationSeconds,
    actual_cost_cents: outcome?.actual_cost_cents ?? 0,
    transcript: state.transcript,
    function_invocations: state.functions,
    transfer_number: null,
    agent_disposition: null,
    recording_id: state.recording?.id ?? null,
    recording_status: state.recording?.state ?? null,
    recording_url: null,
  };
}
