import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, query, type Page } from '../api';
import { formatTime, formatValue } from '../format';
import { Fields, Filters, PageTitle, Pager, Resource, Status, Table, useLoad } from '../ui';

interface Session {
  session_id: string;
  status: string;
  direction: string;
  phone_number: string | null;
  campaign_id: string | null;
  test_mode: boolean;
  created_at: string;
  duration_seconds: number | null;
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
                { label: 'Session', cell: (s) => <a href={`/dashboard/sessions/${s.session_id}`}>{s.session_id}</a> },
                { label: 'Status', cell: (s) => <Status value={s.status} /> },
                { label: 'Direction', cell: (s) => s.direction },
                { label: 'Number', cell: (s) => formatValue(s.phone_number) },
                { label: 'Test', cell: (s) => formatValue(s.test_mode) },
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
          <Fields data={s} omit={['transcript', 'recording']} />
          {s.campaign_id ? (
            <p>
              Campaign: <a href={`/dashboard/campaigns/${s.campaign_id}`}>{s.campaign_id}</a>
            </p>
          ) : null}
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
                  <span class="role">{turn.role}</span>
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
