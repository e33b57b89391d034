import { api, type Page } from '../api';
import { ChartFigure, COLOURS } from '../chart';
import { formatCents, formatDuration, formatPercent } from '../format';
import { Loading, PageTitle, Status, useLoad } from '../ui';

interface Credits {
  balance_cents: number;
  threshold_cents: number;
  currency: string;
}
interface Endpoint {
  id: string;
  url: string;
  status: string;
  failure_streak: number;
}
interface SessionRow {
  session_id: string;
  status: string;
  test_mode: boolean;
  created_at: string;
  hold_reason?: string | null;
}
interface CallFigures {
  calls: number;
  by_status: Record<string, number>;
  ended: number;
  answered: number;
  answer_rate: number | null;
  average_duration_seconds: number | null;
  spend_cents: number;
}
interface CallAnalytics {
  days: number;
  totals: CallFigures;
  data: (CallFigures & { date: string })[];
}
interface DeliveryAnalytics {
  data: {
    endpoint_id: string;
    url: string;
    status: string;
    succeeded: number;
    failed: number;
    pending: number;
    success_rate: number | null;
  }[];
}

const DAYS = 30;
const OUTCOMES: [string, string, string][] = [
  ['completed', 'Completed', COLOURS.completed],
  ['voicemail', 'Voicemail', COLOURS.voicemail],
  ['no_answer', 'No answer', COLOURS.no_answer],
  ['busy', 'Busy', COLOURS.busy],
  ['failed', 'Failed', COLOURS.failed],
];

/** "Nov 25" for a UTC date. */
const dayLabel = (date: string) =>
  new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** The calls waiting on the hold: production calls still queued while the balance is not above zero. */
function heldCalls(credits: Credits | null, queued: SessionRow[]): SessionRow[] {
  if (!credits) return [];
  const flagged = queued.filter((s) => s.hold_reason === 'insufficient_credits');
  if (flagged.length > 0) return flagged;
  return credits.balance_cents <= 0 ? queued.filter((s) => !s.test_mode) : [];
}

function Alerts({ credits, held, failing }: { credits: Credits | null; held: SessionRow[]; failing: Endpoint[] }) {
  const suspended = failing.filter((e) => e.status !== 'active');
  return (
    <div class="alerts">
      {credits && held.length > 0 ? (
        <div class="alert alert-danger" role="alert" data-testid="alert-held">
          <strong>Calls are on hold.</strong> The balance is {formatCents(credits.balance_cents, credits.currency)}, so{' '}
          {held.length === 1 ? '1 call waits' : `${held.length}${held.length === 100 ? '+' : ''} calls wait`} until it
          is above zero again. <a href="/dashboard/credits">Top up</a> ·{' '}
          <a href="/dashboard/sessions?status=queued">See the waiting calls</a>
        </div>
      ) : credits && credits.balance_cents <= 0 ? (
        <div class="alert alert-warning" role="status" data-testid="alert-balance">
          <strong>No credit left.</strong> New production calls will wait until you{' '}
          <a href="/dashboard/credits">top up</a>.
        </div>
      ) : null}
      {suspended.length > 0 ? (
        <div class="alert alert-danger" role="alert" data-testid="alert-endpoints">
          <strong>
            {suspended.length === 1 ? 'A webhook endpoint is' : `${suspended.length} webhook endpoints are`} suspended.
          </strong>{' '}
          Their events are held until you re-enable them:{' '}
          {suspended.map((e, i) => (
            <span key={e.id}>
              {i > 0 ? ', ' : ''}
              <a href={`/dashboard/webhook_endpoints/${e.id}`}>{e.url}</a>
            </span>
          ))}
          .
        </div>
      ) : null}
    </div>
  );
}

function CallCharts({ calls }: { calls: CallAnalytics }) {
  const labels = calls.data.map((d) => dayLabel(d.date));
  const t = calls.totals;
  const open = (d: CallFigures) => (d.by_status.queued ?? 0) + (d.by_status.in_progress ?? 0);
  const busiest = calls.data.reduce((a, b) => (b.calls > a.calls ? b : a), calls.data[0] ?? { calls: 0, date: '' });
  return (
    <div class="charts">
      <ChartFigure
        id="calls"
        title="Calls per day by outcome"
        type="bar"
        stacked
        labels={labels}
        summary={`${t.calls} ${t.calls === 1 ? 'call' : 'calls'} in the last ${calls.days} days${
          busiest.calls > 0 ? `, most on ${dayLabel(busiest.date)} (${busiest.calls})` : ''
        }: ${OUTCOMES.map(([key, name]) => `${t.by_status[key] ?? 0} ${name.toLowerCase()}`).join(', ')}.`}
        series={[
          ...OUTCOMES.map(([key, name, colour]) => ({
            label: name,
            colour,
            values: calls.data.map((d) => d.by_status[key] ?? 0),
          })),
          { label: 'Not ended yet', colour: COLOURS.open, values: calls.data.map(open) },
        ]}
      />
      <ChartFigure
        id="answer-rate"
        title="Answer rate"
        type="line"
        labels={labels}
        yMax={1}
        yFormat={(v) => formatPercent(v)}
        summary={
          t.answer_rate === null
            ? 'No call has ended yet.'
            : `${formatPercent(t.answer_rate)} of the ${t.ended} ${t.ended === 1 ? 'call' : 'calls'} that ended ${
                t.ended === 1 ? 'was' : 'were'
              } answered.`
        }
        series={[
          {
            label: 'Answered',
            colour: COLOURS.line,
            values: calls.data.map((d) => d.answer_rate),
            format: (v) => formatPercent(v),
          },
        ]}
      />
      <ChartFigure
        id="duration"
        title="Average call duration"
        type="line"
        labels={labels}
        yFormat={(v) => formatDuration(v)}
        summary={
          t.average_duration_seconds === null
            ? 'No call was answered yet.'
            : `Answered calls lasted ${formatDuration(t.average_duration_seconds)} on average.`
        }
        series={[
          {
            label: 'Average duration',
            colour: COLOURS.line,
            values: calls.data.map((d) => d.average_duration_seconds),
            format: (v) => formatDuration(v),
          },
        ]}
      />
      <ChartFigure
        id="spend"
        title="Spend per day"
        type="bar"
        labels={labels}
        yFormat={(v) => formatCents(Math.round(v * 100))}
        summary={`${formatCents(t.spend_cents)} spent on calls in the last ${calls.days} days.`}
        series={[
          {
            label: 'Spend',
            colour: COLOURS.line,
            values: calls.data.map((d) => d.spend_cents / 100),
            format: (v) => (v === null ? '—' : formatCents(Math.round(v * 100))),
          },
        ]}
      />
    </div>
  );
}

function DeliveryChart({ deliveries }: { deliveries: DeliveryAnalytics }) {
  const rows = deliveries.data;
  if (rows.length === 0)
    return (
      <section class="chart" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Webhook delivery success per endpoint</h2>
        <p class="muted">
          No webhook endpoints yet: <a href="/dashboard/webhook_endpoints">add one</a> to receive the events.
        </p>
      </section>
    );
  const worst = rows
    .filter((r) => r.success_rate !== null)
    .sort((a, b) => (a.success_rate ?? 1) - (b.success_rate ?? 1))[0];
  return (
    <ChartFigure
      id="deliveries"
      title="Webhook delivery success per endpoint"
      category="Endpoint"
      type="bar"
      stacked
      labels={rows.map((r) => r.url)}
      summary={`${rows.length} ${rows.length === 1 ? 'endpoint' : 'endpoints'} over ${DAYS} days${
        worst ? `; lowest success rate ${formatPercent(worst.success_rate)} (${worst.url})` : ''
      }: ${rows.map((r) => `${r.url} ${r.succeeded} delivered, ${r.failed} failed`).join('; ')}.`}
      series={[
        { label: 'Delivered', colour: COLOURS.completed, values: rows.map((r) => r.succeeded) },
        { label: 'Failed', colour: COLOURS.failed, values: rows.map((r) => r.failed) },
        { label: 'Waiting', colour: COLOURS.open, values: rows.map((r) => r.pending) },
      ]}
    />
  );
}

/** What a manager reads at a glance: alerts, the balance, and the last 30 days in charts. */
export function Overview() {
  const credits = useLoad(() => api<Credits>('GET', '/v1/credits'), 'credits', 10_000);
  const sessions = useLoad(() => api<Page<SessionRow>>('GET', '/v1/sessions?limit=100'), 'sessions', 10_000);
  const queued = useLoad(() => api<Page<SessionRow>>('GET', '/v1/sessions?status=queued&limit=100'), 'queued', 10_000);
  const endpoints = useLoad(() => api<Page<Endpoint>>('GET', '/v1/webhook_endpoints'), 'endpoints', 10_000);
  const calls = useLoad(() => api<CallAnalytics>('GET', `/v1/analytics/calls?days=${DAYS}`), 'calls', 30_000);
  const deliveries = useLoad(
    () => api<DeliveryAnalytics>('GET', `/v1/analytics/deliveries?days=${DAYS}`),
    'deliveries',
    30_000,
  );
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const today = sessions.data?.data.filter((s) => new Date(s.created_at) >= midnight) ?? [];
  const more = sessions.data?.has_more === true && today.length === sessions.data.data.length;
  const failing = endpoints.data?.data.filter((e) => e.status !== 'active' || e.failure_streak > 0) ?? [];
  const held = heldCalls(credits.data, queued.data?.data ?? []);
  const t = calls.data?.totals;
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Overview</PageTitle>
      <Alerts credits={credits.data} held={held} failing={failing} />
      <div class="cards">
        <article
          class={`card${credits.data && credits.data.balance_cents <= 0 ? ' card-alert' : ''}`}
          aria-labelledby="balance-title"
        >
          <h2 id="balance-title">Balance</h2>
          {credits.data ? (
            <p class="figure" data-testid="balance">
              {formatCents(credits.data.balance_cents, credits.data.currency)}
            </p>
          ) : (
            <Loading />
          )}
          <a href="/dashboard/credits">Credits</a>
        </article>
        <article class="card" aria-labelledby="calls-title">
          <h2 id="calls-title">Calls today</h2>
          {sessions.data ? (
            <p class="figure" data-testid="calls-today">
              {today.length}
              {more ? '+' : ''}
            </p>
          ) : (
            <Loading />
          )}
          <a href="/dashboard/sessions">Sessions</a>
        </article>
        <article class="card" aria-labelledby="month-title">
          <h2 id="month-title">Last {DAYS} days</h2>
          {t ? (
            <dl class="mini" data-testid="month">
              <div>
                <dt>Calls</dt>
                <dd>{t.calls}</dd>
              </div>
              <div>
                <dt>Answer rate</dt>
                <dd>{formatPercent(t.answer_rate)}</dd>
              </div>
              <div>
                <dt>Average duration</dt>
                <dd>{formatDuration(t.average_duration_seconds)}</dd>
              </div>
              <div>
                <dt>Spend</dt>
                <dd>{formatCents(t.spend_cents)}</dd>
              </div>
            </dl>
          ) : (
            <Loading />
          )}
        </article>
        <article class={`card${failing.length > 0 ? ' card-alert' : ''}`} aria-labelledby="failing-title">
          <h2 id="failing-title">Failing endpoints</h2>
          {endpoints.data ? (
            <p class="figure" data-testid="failing-endpoints">
              {failing.length}
            </p>
          ) : (
            <Loading />
          )}
          <ul class="plain">
            {failing.map((e) => (
              <li key={e.id}>
                <a href={`/dashboard/webhook_endpoints/${e.id}`}>{e.url}</a> <Status value={e.status} />
                {e.failure_streak > 0 ? <span class="muted small"> {e.failure_streak} failures in a row</span> : null}
              </li>
            ))}
          </ul>
        </article>
      </div>
      {calls.data ? <CallCharts calls={calls.data} /> : <Loading />}
      {deliveries.data ? <DeliveryChart deliveries={deliveries.data} /> : null}
    </section>
  );
}
