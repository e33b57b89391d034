import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Page } from '../api';
import { formatTime, formatValue } from '../format';
import { Action, Fields, PageTitle, Resource, Status, Table, useLoad, StatusMessage } from '../ui';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: string;
  failure_streak: number;
  created_at: string;
}
interface Delivery {
  delivery_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: { at: string; http_status: number | null; error: string | null; duration_ms: number | null }[];
  next_attempt_at: string | null;
}

export function EndpointsPage() {
  const list = useLoad(() => api<Page<Endpoint>>('GET', '/v1/webhook_endpoints'), 'endpoints', 5000);
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Webhook endpoints</PageTitle>
      <Resource loaded={list}>
        {(page) => (
          <Table
            caption="Webhook endpoints"
            rows={page.data}
            rowKey={(e) => e.id}
            columns={[
              { label: 'URL', cell: (e) => <a href={`/dashboard/webhook_endpoints/${e.id}`}>{e.url}</a> },
              { label: 'Status', cell: (e) => <Status value={e.status} /> },
              { label: 'Failure streak', cell: (e) => e.failure_streak },
              { label: 'Events', cell: (e) => e.events.join(', ') },
              { label: 'Created', cell: (e) => formatTime(e.created_at) },
            ]}
          />
        )}
      </Resource>
    </section>
  );
}

function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <span class="muted">none yet</span>;
  return (
    <ol class="attempts">
      {delivery.attempts.map((a, i) => (
        <li key={i}>
          {formatTime(a.at)}: {a.http_status === null ? 'no response' : `HTTP ${a.http_status}`}
          {a.error ? `, ${a.error}` : ''}
          {a.duration_ms !== null ? `, ${a.duration_ms} ms` : ''}
        </li>
      ))}
    </ol>
  );
}

/** An endpoint, its deliveries with every attempt, and "Re-enable", "Send test event", "Retry", "Rotate secret". */
export function EndpointPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const base = `/v1/webhook_endpoints/${encodeURIComponent(id)}`;
  const endpoint = useLoad(() => api<Endpoint>('GET', base), id, 3000);
  const deliveries = useLoad(
    () => api<Page<Delivery>>('GET', `${base}/deliveries?limit=100`),
    `deliveries-${id}`,
    3000,
  );
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => {
    endpoint.reload();
    deliveries.reload();
  };
  return (
    <Resource loaded={endpoint}>
      {(e) => (
        <section aria-labelledby="page-title">
          <PageTitle>Webhook endpoint {e.url}</PageTitle>
          <div class="actions" role="group" aria-label="Endpoint actions">
            <Action
              label="Re-enable"
              disabled={e.status === 'active'}
              run={() => api('POST', `${base}/enable`)}
              done={() => {
                setNotice('Re-enabled: held deliveries are going out.');
                refresh();
              }}
            />
            <Action
              label="Send test event"
              run={() => api<{ event_id: string }>('POST', `${base}/test`)}
              done={(r) => {
                setNotice(`Test event ${(r as { event_id: string }).event_id} queued.`);
                refresh();
              }}
            />
            <Action
              label="Rotate secret"
              confirm="Rotate the signing secret? The old one stops signing at once."
              run={() => api<{ secret: string }>('POST', `${base}/rotate_secret`)}
              done={(r) => setSecret((r as { secret: string }).secret)}
            />
          </div>
          <StatusMessage text={notice} />
          {secret ? (
            <div class="secret" role="status">
              <p>
                <strong>New signing secret</strong>, shown this once: copy it now.
              </p>
              <code data-testid="new-secret">{secret}</code>
              <button type="button" onClick={() => setSecret(null)}>
                I have copied it
              </button>
            </div>
          ) : null}
          <Fields data={e} />
          <h2>Deliveries</h2>
          <p class="muted small">The latest 100, newest first.</p>
          {deliveries.data ? (
            <Table
              caption="Deliveries"
              rows={deliveries.data.data}
              rowKey={(d) => d.delivery_id}
              empty="No deliveries yet."
              columns={[
                { label: 'Event', cell: (d) => <code>{d.event_type}</code> },
                { label: 'Status', cell: (d) => <Status value={d.status} /> },
                { label: 'Attempts', cell: (d) => <Attempts delivery={d} /> },
                { label: 'Next attempt', cell: (d) => formatValue(d.next_attempt_at) },
                {
                  label: 'Retry',
                  cell: (d) =>
                    d.status === 'pending' ? (
                      '—'
                    ) : (
                      <Action
                        label="Retry"
                        name={`Retry ${d.event_type} (${d.delivery_id})`}
                        run={() => api('POST', `${base}/deliveries/${encodeURIComponent(d.delivery_id)}/retry`)}
                        done={refresh}
                      />
                    ),
                },
              ]}
            />
          ) : null}
        </section>
      )}
    </Resource>
  );
}
