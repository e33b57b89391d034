import type { PoolClient } from 'pg';
import { defineProjection, type Handled } from '../../runtime/processing/processor';
import { sessionEdge, SessionEvent, sessionStream, testPersonaOf } from '../domain/session.decider';

/** Entries appended to one jsonb array column, by session, in the batch's order. */
class Appends {
  private readonly bySession = new Map<string, unknown[]>();

  add(sessionId: string, entry: unknown): void {
    const entries = this.bySession.get(sessionId);
    if (entries) entries.push(entry);
    else this.bySession.set(sessionId, [entry]);
  }

  /** One statement for every session of the batch (after the batch's inserts, which create the rows). */
  async flush(tx: PoolClient, column: 'transcript' | 'function_invocations' | 'turn_metrics'): Promise<void> {
    if (this.bySession.size === 0) return;
    await tx.query({
      name: `sessions_append_${column}`,
      text: `UPDATE sessions s SET ${column} = s.${column} || u.entries
             FROM unnest($1::text[], $2::jsonb[]) AS u(id, entries) WHERE s.session_id = u.id`,
      values: [[...this.bySession.keys()], [...this.bySession.values()].map((e) => JSON.stringify(e))],
    });
  }
}

/** The columns a session's events other than session.placed may change (RowChanges.flush writes these). */
const CHANGED_COLUMNS = [
  'status',
  'hold_reason',
  'started_at',
  'end_reason',
  'ended_at',
  'duration_seconds',
  'actual_cost_cents',
  'agent_disposition',
  'transfer_number',
  'opted_out',
  'consent_refused',
  'recording_id',
  'recording_status',
  'recording_url',
  'purge_after',
  'analysis',
  'amd',
  'voicemail_message_left',
] as const;
type ChangedColumn = (typeof CHANGED_COLUMNS)[number];
type RowChange = Partial<Record<ChangedColumn, unknown>> & { created_no_later_than?: string };

const APPLY_CHANGES_SQL = `
  UPDATE sessions s SET (${CHANGED_COLUMNS.join(', ')}) = (SELECT ${CHANGED_COLUMNS.map((c) => `r.${c}`).join(', ')}
                                                      FROM jsonb_populate_record(s, u.change) r),
         created_at = LEAST(s.created_at, (u.change->>'created_no_later_than')::timestamptz)
  FROM unnest($1::text[], $2::jsonb[]) AS u(id, change) WHERE s.session_id = u.id`;

/**
 * What a batch's events change in each session's row, folded in the batch's order (a later event's
 * value of a column wins), written with one statement for every session of the batch: a session's
 * started, ended and recording events cost one UPDATE, not one each.
 */
class RowChanges {
  private readonly bySession = new Map<string, RowChange>();

  set(sessionId: string, change: RowChange): void {
    // A value the event leaves out clears its column, as a statement's undefined parameter would.
    for (const [column, value] of Object.entries(change)) {
      if (value === undefined) change[column as ChangedColumn] = null;
    }
    const row = this.bySession.get(sessionId);
    if (!row) {
      this.bySession.set(sessionId, { ...change });
      return;
    }
    const earliest = earlierOf(row.created_no_later_than, change.created_no_later_than);
    Object.assign(row, change);
    if (earliest !== undefined) row.created_no_later_than = earliest;
  }

  /**
   * jsonb_populate_record(s, change) is the row with the change's columns put in (a JSON null
   * clears one); the columns the change does not name keep their values.
   */
  async flush(tx: PoolClient): Promise<void> {
    if (this.bySession.size === 0) return;
    await tx.query({
      name: 'sessions_apply_changes',
      text: APPLY_CHANGES_SQL,
      values: [[...this.bySession.keys()], [...this.bySession.values()].map((c) => JSON.stringify(c))],
    });
  }
}

function earlierOf(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(b) < Date.parse(a) ? b : a;
}

/** The columns session.placed fills; the others keep their defaults until an event changes them. */
const PLACED_COLUMNS = [
  'session_id',
  'tenant_id',
  'status',
  'to_number',
  'from_number',
  'campaign_id',
  'contact_id',
  'client_reference_id',
  'voice_id',
  'test_mode',
  'test_persona',
  'created_at',
  'email',
  'first_name',
  'last_name',
  'direction',
] as const;

const INSERT_PLACED_SQL = `
  INSERT INTO sessions (${PLACED_COLUMNS.join(', ')})
  SELECT ${PLACED_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::sessions, $1::jsonb)
  ON CONFLICT (session_id) DO NOTHING`;

/** The batch's new sessions, inserted with one statement before the batch's changes (which need the rows). */
class NewRows {
  private readonly rows: Record<(typeof PLACED_COLUMNS)[number], unknown>[] = [];

  add(row: Record<(typeof PLACED_COLUMNS)[number], unknown>): void {
    this.rows.push(row);
  }

  async flush(tx: PoolClient): Promise<void> {
    if (this.rows.length === 0) return;
    await tx.query({ name: 'sessions_insert_placed', text: INSERT_PLACED_SQL, values: [JSON.stringify(this.rows)] });
  }
}

/**
 * The sessions read model behind GET /v1/sessions, transcripts and recordings. A batch costs at most
 * five statements whatever its size: the new sessions' rows, then every other column change folded
 * per session, then the transcript entries, function invocations and turn metrics appended per session.
 */
export const sessionsProjection = defineProjection({
  name: 'sessions',
  edge: sessionEdge,
  stream: sessionStream,
  tables: ['sessions'],
  async applyBatch(tx, events) {
    const batch = {
      newRows: new NewRows(),
      changes: new RowChanges(),
      transcripts: new Appends(),
      invocations: new Appends(),
      metrics: new Appends(),
    };
    for (const event of events) collect(event, batch);
    await batch.newRows.flush(tx);
    await batch.changes.flush(tx);
    await batch.transcripts.flush(tx, 'transcript');
    await batch.invocations.flush(tx, 'function_invocations');
    await batch.metrics.flush(tx, 'turn_metrics');
  },
});

interface Batch {
  newRows: NewRows;
  changes: RowChanges;
  transcripts: Appends;
  invocations: Appends;
  metrics: Appends;
}

function collect(event: Handled<SessionEvent>, batch: Batch): void {
  const id = event.entityId;
  const set = (change: RowChange) => batch.changes.set(id, change);
  switch (event.type) {
    case 'session.placed': {
      const d = event.data;
      batch.newRows.add({
        session_id: id,
        tenant_id: event.metadata.tenant_id,
        status: 'queued',
        to_number: d.to_number,
        from_number: d.from_number,
        campaign_id: d.campaign_id,
        contact_id: d.contact_id,
        client_reference_id: d.client_reference_id,
        voice_id: d.voice_id,
        test_mode: d.test_mode,
        test_persona: testPersonaOf(d) !== null,
        created_at: event.metadata.created_at,
        email: d.email,
        first_name: d.first_name,
        last_name: d.last_name,
        direction: d.direction,
      });
      break;
    }
    case 'session.dispatch_held':
      set({ hold_reason: event.data.reason });
      break;
    case 'session.dispatch_released':
      set({ hold_reason: null });
      break;
    case 'session.started':
      // A room's session starts at the join, before it was stored: it was created then too (created_at ≤ started_at).
      set({
        status: 'in_progress',
        started_at: event.data.started_at,
        hold_reason: null,
        created_no_later_than: event.data.started_at,
      });
      break;
    case 'session.transcript_appended':
      batch.transcripts.add(id, event.data.entry);
      break;
    case 'session.turn_measured':
      batch.metrics.add(id, event.data.turn);
      break;
    case 'session.function_invoked':
      batch.invocations.add(id, event.data.invocation);
      break;
    case 'session.agent_disposition_given':
      set({ agent_disposition: { code: event.data.code, note: event.data.note, given_at: event.data.at } });
      break;
    case 'session.transfer_initiated':
      set({ transfer_number: event.data.transfer_number });
      break;
    case 'session.transfer_failed':
      // The caller stayed: the session shows no transfer (its webhook says why it failed).
      set({ transfer_number: null });
      break;
    case 'session.opt_out_detected':
      set({ opted_out: true });
      break;
    case 'session.consent_refused':
      set({ consent_refused: true });
      break;
    case 'session.ended':
    case 'session.failed':
      set({
        status: event.data.status,
        end_reason: event.data.end_reason,
        ended_at: event.data.ended_at,
        duration_seconds: event.data.duration_seconds,
        actual_cost_cents: event.data.actual_cost_cents,
        hold_reason: null,
        ...(event.type === 'session.failed' && event.data.voicemail_message_left
          ? { voicemail_message_left: true }
          : {}),
      });
      break;
    case 'session.amd_decided':
      set({ amd: { result: event.data.result, decided_after_ms: event.data.decided_after_ms } });
      break;
    case 'session.recording_completed':
      set({
        recording_id: event.data.recording_id,
        recording_status: 'available',
        recording_url: event.data.recording_url,
      });
      break;
    case 'session.opt_out_recording_pending_purge':
      set({ recording_status: 'pending_purge', purge_after: event.data.purge_after });
      break;
    case 'session.opt_out_recording_purged':
      set({ recording_status: 'purged' });
      break;
    case 'session.analysis_completed':
      set({ analysis: event.data.analysis });
      break;
    case 'session.created':
    case 'session.signal_applied':
    case 'function.timeout':
    case 'session.disposition_set':
    case 'session.analysis_requested':
      break;
    default: {
      const unreachable: never = event;
      void unreachable;
    }
  }
}
