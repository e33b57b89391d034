import { api, type Page } from '../api';
import { formatTime, words } from '../format';
import { Action, FormError, formText, Id, PageTitle, Resource, Table, useFormSubmit, useLoad } from '../ui';

interface Listed {
  phone_number: string;
  source?: string;
  reason?: string | null;
  session_id?: string | null;
  created_at: string;
}

/** The do-not-call list: add a number, remove one. */
export function DncPage() {
  const list = useLoad(() => api<Page<Listed>>('GET', '/v1/dnc'), 'dnc', 10_000);
  const { busy, error, onSubmit } = useFormSubmit(async (form) => {
    await api('POST', '/v1/dnc', { phone_number: formText(form, 'phone_number') });
    form.reset();
    list.reload();
  });
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Do-not-call list</PageTitle>
      <form class="inline-form" onSubmit={onSubmit}>
        <label for="dnc-number">Phone number (E.164)</label>
        <input id="dnc-number" name="phone_number" placeholder="+14155550123" required />
        <button type="submit" disabled={busy}>
          Add to the list
        </button>
        <FormError error={error} />
      </form>
      <Resource loaded={list}>
        {(page) => (
          <Table
            caption="Numbers not to call"
            rows={page.data}
            rowKey={(r) => r.phone_number}
            empty="The list is empty."
            columns={[
              { label: 'Number', cell: (r) => r.phone_number },
              { label: 'Source', cell: (r) => (r.source === 'api' ? 'API' : r.source ? words(r.source) : '—') },
              {
                label: 'Session',
                cell: (r) =>
                  r.session_id ? <Id value={r.session_id} href={`/dashboard/sessions/${r.session_id}`} /> : '—',
              },
              { label: 'Added', cell: (r) => formatTime(r.created_at) },
              {
                label: 'Remove',
                cell: (r) => (
                  <Action
                    label="Remove"
                    name={`Remove ${r.phone_number}`}
                    run={() => api('DELETE', `/v1/dnc/${encodeURIComponent(r.phone_number)}`)}
                    done={list.reload}
                  />
                ),
              },
            ]}
          />
        )}
      </Resource>
    </section>
  );
}
