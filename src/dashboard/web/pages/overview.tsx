import { api, type Page } from '../api';
import { formatCents } from '../format';
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
  created_at: string;
}

/** Balance, calls since local midnight, and the endpoints that are suspended or failing. */
export function Overview() {
  const credits = useLoad(() => api<Credits>('GET', '/v1/credits'), 'credits', 10_000);
  const sessions = useLoad(() => api<Page<SessionRow>>('GET', '/v1/sessions?limit=100'), 'sessions', 10_000);
  const endpoints = useLoad(() => api<Page<Endpoint>>('GET', '/v1/webhook_endpoints'), 'endpoints', 10_000);
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const today = sessions.data?.data.filter((s) => new Date(s.created_at) >= midnight) ?? [];
  const more = sessions.data?.has_more === true && today.length === sessions.data.data.length;
  const failing = endpoints.data?.data.filter((e) => e.status !== 'active' || e.failure_streak > 0) ?? [];
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Overview</PageTitle>
      <div class="cards">
        <article class="card" aria-labelledby="balance-title">
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
        <article class="card" aria-labelledby="failing-title">
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
              </li>
            ))}
          </ul>
        </article>
      </div>
    </section>
  );
}
