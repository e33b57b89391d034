import { useLocation } from 'preact-iso';
import { api, query, type Page } from '../api';
import { formatTime } from '../format';
import { Id, PageTitle, Resource, Table, useLoad, formText } from '../ui';

interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

const LINKS: [string, string][] = [
  ['session_id', 'sessions'],
  ['campaign_id', 'campaigns'],
  ['endpoint_id', 'webhook_endpoints'],
  ['room_id', 'rooms'],
  ['voice_id', 'voice_clones'],
  ['phone_number_id', 'phone_numbers'],
  ['topup_id', 'topups'],
];

/** The resource an event is about, linked to its page. */
function Subject({ event }: { event: EventEnvelope }) {
  for (const [field, collection] of LINKS) {
    const value = event.data[field];
    if (typeof value === 'string') return <Id value={value} href={`/dashboard/${collection}/${value}`} />;
  }
  return <span class="muted">—</span>;
}

/** The events feed, newest first, filterable by type, paged with `after`. */
export function EventsPage() {
  const { query: q, url, route } = useLocation();
  const path = `/v1/events${query({ order: 'desc', limit: 50, type: q.type, after: q.after })}`;
  const list = useLoad(() => api<Page<EventEnvelope>>('GET', path), path, 5000);
  const base = url.split('?')[0] ?? url;
  const submit = (event: Event) => {
    event.preventDefault();
    const type = formText(event.currentTarget, 'type').trim();
    route(type ? `${base}?type=${encodeURIComponent(type)}` : base);
  };
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Events</PageTitle>
      <form class="filters" role="search" aria-label="Filters" onSubmit={submit} key={url}>
        <div class="field">
          <label for="filter-type">Event type</label>
          <input id="filter-type" name="type" defaultValue={q.type ?? ''} placeholder="session.ended" />
        </div>
        <button type="submit">Filter</button>
      </form>
      <Resource loaded={list}>
        {(page) => (
          <>
            <Table
              caption="Events"
              rows={page.data}
              rowKey={(e) => e.id}
              columns={[
                { label: 'Time', cell: (e) => formatTime(e.created_at) },
                { label: 'Type', cell: (e) => <code>{e.type}</code> },
                { label: 'About', cell: (e) => <Subject event={e} /> },
                { label: 'Event id', cell: (e) => <Id value={e.id} /> },
              ]}
            />
            <nav class="pager" aria-label="Pages">
              {q.after ? (
                <button
                  type="button"
                  onClick={() => route(q.type ? `${base}?type=${encodeURIComponent(q.type)}` : base)}
                >
                  Newest
                </button>
              ) : null}
              {page.has_more && page.data.length > 0 ? (
                <button
                  type="button"
                  onClick={() => route(`${base}${query({ type: q.type, after: page.data[page.data.length - 1]?.id })}`)}
                >
                  Older
                </button>
              ) : null}
            </nav>
          </>
        )}
      </Resource>
    </section>
  );
}
