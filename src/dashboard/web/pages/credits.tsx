import { useLocation, useRoute } from 'preact-iso';
import { api, query, type Page } from '../api';
import { formatCents, formatTime } from '../format';
import {
  Fields,
  Id,
  FormError,
  FormRefusal,
  formText,
  PageTitle,
  Pager,
  Resource,
  Status,
  Table,
  useFormSubmit,
  useLoad,
} from '../ui';

interface Credits {
  balance_cents: number;
  threshold_cents: number;
  currency: string;
}
interface Topup {
  topup_id: string;
  amount_cents: number;
  status: string;
  created_at: string;
}

/** A whole number of cents from a dollar amount typed by a person ("12.50"), or null. */
function cents(text: string): number | null {
  if (!/^\d+(\.\d{1,2})?$/.test(text.trim())) return null;
  return Math.round(Number(text) * 100);
}

function AmountForm({
  id,
  label,
  button,
  submit,
}: {
  id: string;
  label: string;
  button: string;
  submit: (c: number) => Promise<void>;
}) {
  const { busy, error, onSubmit } = useFormSubmit(async (form) => {
    const value = cents(formText(form, 'amount'));
    if (value === null) throw new FormRefusal('Write an amount in dollars, like 25 or 12.50.');
    await submit(value);
    form.reset();
  });
  return (
    <form class="inline-form" onSubmit={onSubmit}>
      <label for={id}>{label}</label>
      <input id={id} name="amount" inputMode="decimal" required />
      <button type="submit" disabled={busy}>
        {button}
      </button>
      <FormError error={error} />
    </form>
  );
}

/** Balance, the low-balance threshold, "Top up", and the top-ups so far. */
export function CreditsPage() {
  const credits = useLoad(() => api<Credits>('GET', '/v1/credits'), 'credits', 3000);
  const { query: q } = useLocation();
  const topupsPath = `/v1/credits/topups${query({ starting_after: q.starting_after })}`;
  const topups = useLoad(() => api<Page<Topup>>('GET', topupsPath), topupsPath, 3000);
  const refresh = () => {
    credits.reload();
    topups.reload();
  };
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Credits</PageTitle>
      <Resource loaded={credits}>
        {(c) => (
          <dl class="fields">
            <div>
              <dt>Balance</dt>
              <dd data-testid="balance">{formatCents(c.balance_cents, c.currency)}</dd>
            </div>
            <div>
              <dt>Low-balance threshold</dt>
              <dd data-testid="threshold">{formatCents(c.threshold_cents, c.currency)}</dd>
            </div>
          </dl>
        )}
      </Resource>
      <h2>Top up</h2>
      <AmountForm
        id="topup-amount"
        label="Amount (USD)"
        button="Top up"
        submit={async (amount) => {
          await api('POST', '/v1/credits/topups', { amount_cents: amount });
          refresh();
        }}
      />
      <h2>Low-balance warning</h2>
      <AmountForm
        id="threshold-amount"
        label="Warn below (USD; 0 for never)"
        button="Save threshold"
        submit={async (amount) => {
          await api('PATCH', '/v1/credits', { threshold_cents: amount });
          refresh();
        }}
      />
      <h2>Top-ups</h2>
      {topups.data ? (
        <Table
          caption="Top-ups"
          rows={topups.data.data}
          rowKey={(t) => t.topup_id}
          columns={[
            { label: 'Top-up', cell: (t) => <Id value={t.topup_id} href={`/dashboard/topups/${t.topup_id}`} /> },
            { label: 'Amount', cell: (t) => formatCents(t.amount_cents) },
            { label: 'Status', cell: (t) => <Status value={t.status} /> },
            { label: 'Created', cell: (t) => formatTime(t.created_at) },
          ]}
        />
      ) : null}
      {topups.data ? (
        <Pager
          hasMore={topups.data.has_more === true}
          lastId={topups.data.data[topups.data.data.length - 1]?.topup_id}
        />
      ) : null}
    </section>
  );
}

export function TopupPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const topup = useLoad(() => api<Topup>('GET', `/v1/credits/topups/${encodeURIComponent(id)}`), id, 3000);
  return (
    <Resource loaded={topup}>
      {(t) => (
        <section aria-labelledby="page-title">
          <PageTitle>Top-up {t.topup_id}</PageTitle>
          <Fields data={t} />
        </section>
      )}
    </Resource>
  );
}
