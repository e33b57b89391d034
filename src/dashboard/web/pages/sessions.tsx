import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, query, type Page } from '../api';
import { formatCents, formatDuration, formatTime, formatValue, words } from '../format';
import { longer, useLiveView, type LiveView, type TranscriptTurn, type TurnMetrics } from '../live';
import { Fields, Filters, Id, PageTitle, Pager, Resource, Status, Table, useLoad } from '../ui';
import { Waterfalls } from '../waterfall';

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
  started_at?: string | null;
  end_reason?: string | null;
  transcript: TranscriptTurn[];
  function_invocations?: Record<string, unknown>[];
  metrics?: { turns: TurnMetrics[] };
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

const inCall = (status: string): boolean => status === 'queued' || status === 'in_progress';

/** Refreshed while the call runs and for a few minutes after (its recording follows the end). */
function stillChanging(s: Session | null): boolean {
  if (!s) return true;
  if (inCall(s.status)) return true;
  return s.ended_at === null || Date.now() - Date.parse(s.ended_at) < 5 * 60_000;
}

/**
 * The session with what the live view told since it was read: the longer transcript, metrics and
 * function calls, the live status, and the end as the stream told it until the session read has it.
 */
function withLive(s: Session, live: LiveView): Session {
  if (live.phase === 'idle') return s;
  const final = !inCall(s.status);
  const status = live.end && !final ? live.end.status : final ? s.status : (live.status ?? s.status);
  const ended = live.end && !final ? live.end : null;
  return {
    ...s,
    status,
    // A held call that went out is held no more.
    hold_reason: status === 'queued' ? s.hold_reason : null,
    ...(s.started_at !== undefined ? { started_at: s.started_at ?? live.started_at } : {}),
    ...(ended
      ? {
          ended_at: ended.ended_at ?? s.ended_at,
          duration_seconds: ended.duration_seconds ?? s.duration_seconds,
          ...(s.end_reason !== undefined ? { end_reason: ended.end_reason ?? s.end_reason } : {}),
        }
      : {}),
    transcript: [...longer(s.transcript, live.transcript)],
    ...(s.function_invocations ? { function_invocations: [...longer(s.function_invocations, live.functions)] } : {}),
    ...(s.metrics ? { metrics: { ...s.metrics, turns: [...longer(s.metrics.turns, live.metrics)] } } : {}),
  };
}

const LIVE_TEXT: Record<LiveView['phase'], string | null> = {
  idle: null,
  connecting: 'Connecting to the call…',
  open: 'Live: following the call as it happens.',
  ended: null,
  failed: null,
};

export function SessionPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const [changing, setChanging] = useState(true);
  // The id of the session last read in a call (queued or in progress): the one to follow live.
  const [inCallId, setInCallId] = useState<string | null>(null);
  const path = `/v1/sessions/${encodeURIComponent(id)}`;
  const reload = useRef<() => void>(() => undefined);
  // Once it has ended: the session and its events are read once more (the end, the final metrics).
  const live = useLiveView(id, inCallId === id, () => reload.current());
  // While the live view is followed the session is not read again: the stream tells what changes.
  const following = live.phase === 'connecting' || live.phase === 'open';
  const session = useLoad(() => api<Session>('GET', path), id, changing && !following ? 5000 : undefined);
  const events = useLoad(
    () => api<Page<SessionEvent>>('GET', `${path}/events`),
    `events-${id}`,
    changing ? 5000 : undefined,
  );
  reload.current = () => {
    session.reload();
    events.reload();
  };
  useEffect(() => {
    setChanging(stillChanging(session.data));
    if (session.data) setInCallId(inCall(session.data.status) ? id : null);
  }, [session.data]);
  // Each read signs a fresh recording link: the player keeps the first one, or it would restart.
  const recordingSrc = useRef<{ id: string; url: string } | null>(null);
  const recording = session.data?.recording;
  if (recording?.recording_url && recordingSrc.current?.id !== recording.recording_id)
    recordingSrc.current = { id: recording.recording_id, url: recording.recording_url };
  if (recording && !recording.recording_url) recordingSrc.current = null;
  const liveText = LIVE_TEXT[live.phase];
  return (
    <Resource loaded={session}>
      {(read) => {
        const s = withLive(read, live);
        const transcript = live.partial ? [...s.transcript, live.partial] : s.transcript;
        return (
          <section aria-labelledby="page-title">
            <PageTitle>Session {s.session_id}</PageTitle>
            <p
              role="status"
              class={liveText ? 'live-badge' : 'visually-hidden'}
              data-testid="live-status"
              data-phase={live.phase}
            >
              {liveText ?? ''}
            </p>
            {s.hold_reason ? <p class="notice">{holdText(s.hold_reason)}</p> : null}
            <Fields
              data={s}
              omit={['transcript', 'recording', 'session_id', 'phone_number', 'metrics']}
              labels={{ started_at: 'Answered' }}
            />
            <h2>Recording</h2>
            {s.recording?.recording_url && recordingSrc.current ? (
              <audio controls preload="metadata" src={recordingSrc.current.url} aria-label="Call recording" />
            ) : (
              <p class="muted">
                {s.recording ? `Recording ${s.recording.status.replace(/_/g, ' ')}.` : 'No recording.'}
              </p>
            )}
            <h2>Transcript</h2>
            {transcript.length === 0 ? (
              <p class="muted">{following ? 'Nothing said yet.' : 'No transcript.'}</p>
            ) : (
              <ol class="transcript" aria-label="Transcript" aria-live={following ? 'polite' : undefined}>
                {transcript.map((turn, i) => (
                  <li
                    key={i}
                    class={`turn turn-${turn.role}${turn === live.partial ? ' turn-partial' : ''}`}
                    aria-busy={turn === live.partial ? true : undefined}
                  >
                    <span class="role">{ROLES[turn.role] ?? words(turn.role)}</span>
                    {turn.t !== undefined ? <span class="muted small"> {turn.t.toFixed(1)} s</span> : null}
                    <p>
                      {turn.content ?? ''}
                      {turn === live.partial ? '…' : ''}
                    </p>
                  </li>
                ))}
              </ol>
            )}
            <h2>Latency per agent turn</h2>
            <Waterfalls turns={s.metrics?.turns ?? []} transcript={s.transcript} live={following} />
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
        );
      }}
    </Resource>
  );
}
