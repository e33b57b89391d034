import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Page } from '../api';
import { formatTime, formatValue } from '../format';
import {
  Action,
  ErrorNotice,
  Fields,
  Id,
  Loading,
  PageTitle,
  Resource,
  Status,
  Table,
  useLoad,
  StatusMessage,
} from '../ui';

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
interface DeliveryDetail extends Delivery {
  payload: Record<string, unknown>;
  attempts: (Delivery['attempts'][number] & { response_body: string | null })[];
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
              { label: 'Failures in a row', cell: (e) => e.failure_streak },
              { label: 'Events', cell: (e) => (e.events.join() === '*' ? 'All events' : e.events.join(', ')) },
              { label: 'Created', cell: (e) => formatTime(e.created_at) },
            ]}
          />
        )}
      </Resource>
    </section>
  );
}

/** The payload sent and each attempt's answer, read when the disclosure is opened. */
function DeliveryBody({ base, delivery }: { base: string; delivery: Delivery }) {
  const path = `${base}/deliveries/${encodeURIComponent(delivery.delivery_id)}`;
  const detail = useLoad(() => api<DeliveryDetail>('GET', path), `${path}-${delivery.attempts.length}`);
  if (!detail.data) return detail.error ? <ErrorNotice error={detail.error} /> : <Loading />;
  const answers = detail.data.attempts.filter((a) => a.http_status !== null || a.error);
  return (
    <div class="delivery-body">
      <div>
        <h3>Payload sent</h3>
        <pre class="code" tabIndex={0} aria-label="Payload sent">
          {JSON.stringify(detail.data.payload, null, 2)}
        </pre>
      </div>
      <div>
        <h3>Receiver's answer</h3>
        {answers.length === 0 ? <p class="muted">Not attempted yet.</p> : null}
        {answers.map((a, i) => (
          <div key={i} class="answer">
            <p>
              Attempt {i + 1}, {formatTime(a.at)}:{' '}
              <strong>{a.http_status === null ? 'no response' : `HTTP ${a.http_status}`}</strong>
              {a.error ? ` (${a.error})` : ''}
            </p>
            {a.response_body ? (
              <pre class="code" tabIndex={0} aria-label={`Answer to attempt ${i + 1}`}>
                {a.response_body}
              </pre>
            ) : (
              <p class="muted small">Empty body.</p>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}

/** The button that shows or hides a delivery's payload and answer (under its row). */
function DeliveryToggle({ delivery, open, toggle }: { delivery: Delivery; open: boolean; toggle: () => void }) {
  return (
    <button
      type="button"
      class="link-button"
      aria-expanded={open}
      aria-label={`${open ? 'Hide' : 'Show'} payload and answer of ${delivery.event_type} (${delivery.delivery_id})`}
      onClick={toggle}
    >
      {open ? 'Hide' : 'Payload and answer'}
    </button>
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
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const toggle = (deliveryId: string) =>
    setOpened((now) => {
      const next = new Set(now);
      if (!next.delete(deliveryId)) next.add(deliveryId);
      return next;
    });
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
            {e.status === 'suspended' ? (
              <Action
                label="Re-enable"
                run={() => api('POST', `${base}/enable`)}
                done={() => {
                  setNotice('Re-enabled: held deliveries are going out.');
                  refresh();
                  document.getElementById('page-title')?.focus();
                }}
              />
            ) : null}
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
              expand={(d) => (opened.has(d.delivery_id) ? <DeliveryBody base={base} delivery={d} /> : null)}
              empty="No deliveries yet."
              columns={[
                {
                  label: 'Event',
                  cell: (d) => (
                    <>
                      <code>{d.event_type}</code>
                      <br />
                      <Id value={d.delivery_id} />
                    </>
                  ),
                },
                { label: 'Status', cell: (d) => <Status value={d.status} /> },
                { label: 'Attempts', cell: (d) => <Attempts delivery={d} /> },
                { label: 'Next attempt', cell: (d) => formatValue(d.next_attempt_at) },
                {
                  label: 'Sent and received',
                  cell: (d) => (
                    <DeliveryToggle
                      delivery={d}
                      open={opened.has(d.delivery_id)}
                      toggle={() => toggle(d.delivery_id)}
                    />
                  ),
                },
                {
                  label: 'Retry',
                  cell: (d) =>
                    d.status !== 'failed' ? (
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
