import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, query, type Page } from '../api';
import { formatCents, formatDuration, formatTime, formatValue, words } from '../format';
import { Fields, Filters, Id, PageTitle, Pager, Resource, Status, Table, useLoad } from '../ui';

interface Session {
  session_id: string;
  status: string;
  hold_reason?: string | null;
  direction: string;
  phone_number: string | null;
  campaign_id: string | null;
  test_mode: boolean;
  created_at: string;
  duration_seconds: number | null;
  actual_cost_cents: number;
  ended_at: string | null;
  transcript: { role: string; content?: string; t?: number }[];
  recording: { recording_id: string; status: string; recording_url: string | null } | null;
}
interface SessionEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

const ROLES: Record<string, string> = { agent: 'Agent', assistant: 'Agent', user: 'Caller', caller: 'Caller' };

/** Why a queued call waits, as a sentence (`hold_reason`; an unknown reason is shown as it is). */
const holdText = (reason: string): string =>
  reason === 'insufficient_credits'
    ? 'Held: the credit balance is depleted. The call goes out once it is topped up.'
    : `Held: ${reason.replace(/_/g, ' ')}.`;

const STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'no_answer', 'voicemail', 'busy'] as const;

export function SessionsPage() {
  const { query: q } = useLocation();
  const path = `/v1/sessions${query({ status: q.status, direction: q.direction, campaign_id: q.campaign_id, starting_after: q.starting_after })}`;
  const list = useLoad(() => api<Page<Session>>('GET', path), path, 5000);
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Sessions</PageTitle>
      <Filters
        fields={[
          { name: 'status', label: 'Status', options: STATUSES },
          { name: 'direction', label: 'Direction', options: ['outbound', 'inbound'] },
          { name: 'campaign_id', label: 'Campaign id' },
        ]}
      />
      <Resource loaded={list}>
        {(page) => (
          <>
            <Table
              caption="Sessions"
              rows={page.data}
              rowKey={(s) => s.session_id}
              columns={[
                {
                  label: 'Session',
                  cell: (s) => <Id value={s.session_id} href={`/dashboard/sessions/${s.session_id}`} />,
                },
                {
                  label: 'Status',
                  cell: (s) => (
                    <>
                      <Status value={s.status} />
                      {s.hold_reason ? <span class="muted small"> {holdText(s.hold_reason)}</span> : null}
                    </>
                  ),
                },
                { label: 'Direction', cell: (s) => words(s.direction) },
                { label: 'Number', cell: (s) => <span class="nowrap">{formatValue(s.phone_number)}</span> },
                { label: 'Duration', cell: (s) => formatDuration(s.duration_seconds) },
                { label: 'Cost', cell: (s) => formatCents(s.actual_cost_cents) },
                { label: 'Test mode', cell: (s) => formatValue(s.test_mode) },
                { label: 'Created', cell: (s) => formatTime(s.created_at) },
              ]}
            />
            <Pager hasMore={page.has_more === true} lastId={page.data[page.data.length - 1]?.session_id} />
          </>
        )}
      </Resource>
    </section>
  );
}

/** Refreshed while the call runs and for a few minutes after (its recording follows the end). */
function stillChanging(s: Session | null): boolean {
  if (!s) return true;
  if (s.status === 'queued' || s.status === 'in_progress') return true;
  return s.ended_at === null || Date.now() - Date.parse(s.ended_at) < 5 * 60_000;
}

export function SessionPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const [live, setLive] = useState(true);
  const pollMs = live ? 5000 : undefined;
  const session = useLoad(() => api<Session>('GET', `/v1/sessions/${encodeURIComponent(id)}`), id, pollMs);
  const events = useLoad(
    () => api<Page<SessionEvent>>('GET', `/v1/sessions/${encodeURIComponent(id)}/events`),
    `events-${id}`,
    pollMs,
  );
  useEffect(() => setLive(stillChanging(session.data)), [session.data]);
  // Each read signs a fresh recording link: the player keeps the first one, or it would restart.
  const recordingSrc = useRef<{ id: string; url: string } | null>(null);
  const recording = session.data?.recording;
  if (recording?.recording_url && recordingSrc.current?.id !== recording.recording_id)
    recordingSrc.current = { id: recording.recording_id, url: recording.recording_url };
  if (recording && !recording.recording_url) recordingSrc.current = null;
  return (
    <Resource loaded={session}>
      {(s) => (
        <section aria-labelledby="page-title">
          <PageTitle>Session {s.session_id}</PageTitle>
          {s.hold_reason ? <p class="notice">{holdText(s.hold_reason)}</p> : null}
          <Fields
            data={s}
            omit={['transcript', 'recording', 'session_id', 'phone_number']}
            labels={{ started_at: 'Answered' }}
          />
          <h2>Recording</h2>
          {s.recording?.recording_url && recordingSrc.current ? (
            <audio controls preload="metadata" src={recordingSrc.current.url} aria-label="Call recording" />
          ) : (
            <p class="muted">{s.recording ? `Recording ${s.recording.status.replace(/_/g, ' ')}.` : 'No recording.'}</p>
          )}
          <h2>Transcript</h2>
          {s.transcript.length === 0 ? (
            <p class="muted">No transcript.</p>
          ) : (
            <ol class="transcript" aria-label="Transcript">
              {s.transcript.map((turn, i) => (
                <li key={i} class={`turn turn-${turn.role}`}>
                  <span class="role">{ROLES[turn.role] ?? words(turn.role)}</span>
                  {turn.t !== undefined ? <span class="muted small"> {turn.t.toFixed(1)} s</span> : null}
                  <p>{turn.content ?? ''}</p>
                </li>
              ))}
            </ol>
          )}
          <h2>Events</h2>
          {events.data ? (
            <ol class="timeline" aria-label="Events timeline">
              {events.data.data.map((e) => (
                <li key={e.id}>
                  <time dateTime={e.created_at}>{formatTime(e.created_at)}</time> <code>{e.type}</code>
                </li>
              ))}
            </ol>
          ) : null}
        </section>
      )}
    </Resource>
  );
}
