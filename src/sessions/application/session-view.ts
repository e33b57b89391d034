import type { AppConfig } from '../../config/config';
import type { StoredEvent } from '../../event-store/event-store.port';
import { foldStored } from '../../kernel/decider';
import { sessionDecider, sessionEdge } from '../domain/session.decider';
import type { AnsweringMachineDetection, CallAnalysis, TranscriptEntry } from '../sessions.payloads';

const placedEdge = sessionEdge.only('session.placed');
const outcomeEdge = sessionEdge.only('session.ended', 'session.failed');
const analysisEdge = sessionEdge.only('session.analysis_completed');
const amdEdge = sessionEdge.only('session.amd_decided');
import type { SessionEntity } from '../projections/session.entity';
import { presentMetrics } from './session-metrics';

/** A session as the API presents it: the read model's row, or the same folded from the session's stream. */
export type SessionRow = Omit<SessionEntity, 'tenantId' | 'optedOut' | 'consentRefused' | 'purgeAfter'>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The agent's own disposition of a call, as sessions.projection.ts keeps it (jsonb). */
export interface AgentDisposition {
  code: string;
  note: string | null;
  given_at: string;
}

/**
 * The Session resource (the fields of session.ended in docs/events.md), plus direction, hold_reason, test_mode, created_at and the recording. The recording's
 * URL is a fresh signed link (`recordingLink`), so that a session read now always carries one that works.
 */
export function presentSession(row: SessionRow, config: AppConfig, recordingLink: (recordingId: string) => string) {
  return {
    session_id: row.sessionId,
    client_reference_id: row.clientReferenceId,
    campaign_id: row.campaignId,
    contact_id: row.contactId,
    direction: row.direction,
    from_number: row.fromNumber,
    to_number: row.toNumber,
    // The other party: the callee of an outbound call, the caller of an inbound one.
    phone_number: row.direction === 'inbound' ? row.fromNumber : row.toNumber,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    voice_id: row.voiceId,
    status: row.status,
    // Why a queued call waits (SESSION_HOLD_REASONS), null when it does not.
    hold_reason: row.holdReason,
    end_reason: row.endReason,
    test_mode: row.testMode,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    ended_at: iso(row.endedAt),
    duration_seconds: row.durationSeconds,
    actual_cost_cents: row.actualCostCents,
    // Key order as in the webhooks: role, content, dtmf, t.
    transcript: (row.transcript as TranscriptEntry[]).map(({ role, content, dtmf, t }) => ({
      role,
      ...(content !== undefined ? { content } : {}),
      ...(dtmf !== undefined ? { dtmf } : {}),
      ...(t !== undefined ? { t } : {}),
    })),
    transcript_url: row.transcript.length > 0 ? `${config.baseUrl}/v1/sessions/${row.sessionId}/transcript.json` : null,
    function_invocations: row.functionInvocations,
    // Each measured agent turn and the voice-to-voice percentiles (empty for a simulated call).
    metrics: presentMetrics(row.turnMetrics),
    transfer_number: row.transferNumber,
    agent_disposition: (row.agentDisposition ?? null) as AgentDisposition | null,
    // The post-call analysis (`agent_config.analysis`): null until it is done, and when none was asked.
    analysis: (row.analysis ?? null) as CallAnalysis | null,
    // Who answered an outbound call (answering-machine detection); null when the call was not screened.
    amd: (row.amd ?? null) as AnsweringMachineDetection | null,
    voicemail_message_left: row.voicemailMessageLeft,
    recording:
      row.recordingId === null
        ? null
        : {
            recording_id: row.recordingId,
            status: row.recordingStatus,
            recording_url: row.recordingStatus === 'purged' ? null : recordingLink(row.recordingId),
          },
  };
}

/**
 * The same row folded from the session's own stream, for the moment between a write and the read
 * model catching up (read-your-writes without making the write wait). Null for another tenant.
 */
export function sessionRowFromStream(
  events: readonly Pick<StoredEvent, 'type' | 'data' | 'metadata'>[],
  tenantId: string,
): SessionRow | null {
  const placed = events[0];
  if (!placed || placed.type !== 'session.placed' || placed.metadata.tenant_id !== tenantId) return null;
  const state = foldStored(sessionDecider, events);
  if (state.status === 'none') return null;
  const request = placedEdge.decode(placed).data;
  const ended = events.find((e) => e.type === 'session.ended' || e.type === 'session.failed');
  const outcome = ended ? outcomeEdge.decode(ended).data : undefined;
  const analysed = events.find((e) => e.type === 'session.analysis_completed');
  const screened = events.find((e) => e.type === 'session.amd_decided');
  return {
    sessionId: state.sessionId,
    status: state.status,
    holdReason: state.holdReason,
    direction: state.direction,
    toNumber: state.toNumber,
    fromNumber: state.fromNumber,
    campaignId: state.campaignId,
    contactId: state.contactId,
    email: state.contact.email,
    firstName: state.contact.first_name,
    lastName: state.contact.last_name,
    clientReferenceId: state.clientReferenceId,
    voiceId: request.voice_id,
    testMode: state.testMode,
    testPersona: request.test_mode && request.test_persona !== undefined,
    endReason: outcome?.end_reason ?? null,
    // As the read model: a room's session is created at the join, its start (created_at ≤ started_at).
    createdAt: new Date(
      Math.min(Date.parse(placed.metadata.created_at), Date.parse(state.startedAt ?? placed.metadata.created_at)),
    ),
    startedAt: state.startedAt ? new Date(state.startedAt) : null,
    endedAt: state.endedAt ? new Date(state.endedAt) : null,
    durationSeconds: state.durationSeconds,
    actualCostCents: outcome?.actual_cost_cents ?? 0,
    transcript: state.transcript,
    functionInvocations: state.functions,
    turnMetrics: state.turnMetrics,
    transferNumber: null,
    agentDisposition: null,
    recordingId: state.recording?.id ?? null,
    recordingStatus: state.recording?.state ?? null,
    recordingUrl: null,
    analysis: analysed ? analysisEdge.decode(analysed).data.analysis : null,
    amd: screened ? amdEdge.decode(screened).data : null,
    voicemailMessageLeft:
      outcome !== undefined && 'voicemail_message_left' in outcome && outcome.voicemail_message_left === true,
  };
}
