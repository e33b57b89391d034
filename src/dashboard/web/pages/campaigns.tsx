import { useLocation, useRoute } from 'preact-iso';
import { api, query, type Page } from '../api';
import { formatTime, formatValue } from '../format';
import { Action, Fields, Filters, PageTitle, Pager, Resource, Status, Table, useLoad } from '../ui';

interface Campaign {
  campaign_id: string;
  name: string;
  status: string;
  pause_reason: string | null;
  test_mode: boolean;
  total_contacts: number;
  contacts: Record<'pending' | 'dispatched' | 'completed' | 'failed' | 'skipped', number>;
  created_at: string;
}
interface Contact {
  contact_id: string;
  phone_number: string;
  status: string;
  skip_reason: string | null;
  session_id: string | null;
  finished_at: string | null;
}

const CONTACT_STATES = ['pending', 'dispatched', 'completed', 'failed', 'skipped'] as const;

const done = (c: Campaign) => c.contacts.completed + c.contacts.failed + c.contacts.skipped;

function Progress({ campaign }: { campaign: Campaign }) {
  const total = Math.max(campaign.total_contacts, 1);
  return (
    <progress max={total} value={done(campaign)} aria-label={`Progress of ${campaign.name}`}>
      {done(campaign)} of {campaign.total_contacts}
    </progress>
  );
}

export function CampaignsPage() {
  const { query: q } = useLocation();
  const path = `/v1/campaigns${query({ starting_after: q.starting_after })}`;
  const list = useLoad(() => api<Page<Campaign>>('GET', path), path, 3000);
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Campaigns</PageTitle>
      <Resource loaded={list}>
        {(page) => (
          <>
            <Table
              caption="Campaigns"
              rows={page.data}
              rowKey={(c) => c.campaign_id}
              columns={[
                { label: 'Name', cell: (c) => <a href={`/dashboard/campaigns/${c.campaign_id}`}>{c.name}</a> },
                { label: 'Status', cell: (c) => <Status value={c.status} /> },
                { label: 'Progress', cell: (c) => `${done(c)} / ${c.total_contacts}` },
                { label: 'Test', cell: (c) => formatValue(c.test_mode) },
                { label: 'Created', cell: (c) => formatTime(c.created_at) },
              ]}
            />
            <Pager hasMore={page.has_more === true} lastId={page.data[page.data.length - 1]?.campaign_id} />
          </>
        )}
      </Resource>
    </section>
  );
}

/** A campaign's counts by contact state, refreshed every 2 s, with "Start", "Pause" and "Resume". */
export function CampaignPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const base = `/v1/campaigns/${encodeURIComponent(id)}`;
  const campaign = useLoad(() => api<Campaign>('GET', base), id, 2000);
  const { query: q } = useLocation();
  const contactsPath = `${base}/contacts${query({ status: q.status, starting_after: q.starting_after })}`;
  const contacts = useLoad(() => api<Page<Contact>>('GET', contactsPath), contactsPath, 2000);
  const act = (verb: 'start' | 'pause' | 'resume') => () => api('POST', `${base}/${verb}`);
  return (
    <Resource loaded={campaign}>
      {(c) => (
        <section aria-labelledby="page-title">
          <PageTitle>Campaign {c.name}</PageTitle>
          <p>
            <Status value={c.status} />
            {c.pause_reason ? <span class="muted"> ({c.pause_reason.replace(/_/g, ' ')})</span> : null}
          </p>
          <div class="actions" role="group" aria-label="Campaign actions">
            <Action label="Start" run={act('start')} done={campaign.reload} disabled={c.status !== 'draft'} />
            <Action label="Pause" run={act('pause')} done={campaign.reload} disabled={c.status !== 'running'} />
            <Action label="Resume" run={act('resume')} done={campaign.reload} disabled={c.status !== 'paused'} />
          </div>
          <h2>Progress</h2>
          <Progress campaign={c} />
          <dl class="counts" aria-label="Contacts by state">
            {(['pending', 'dispatched', 'completed', 'failed', 'skipped'] as const).map((state) => (
              <div key={state}>
                <dt>{state}</dt>
                <dd data-testid={`count-${state}`}>{c.contacts[state]}</dd>
              </div>
            ))}
          </dl>
          <h2>Details</h2>
          <Fields data={c} omit={['contacts', 'status', 'pause_reason']} />
          <h2>Contacts</h2>
          <Filters fields={[{ name: 'status', label: 'State', options: CONTACT_STATES }]} />
          {contacts.data ? (
            <Table
              caption="Contacts"
              rows={contacts.data.data}
              rowKey={(x) => x.contact_id}
              columns={[
                { label: 'Number', cell: (x) => x.phone_number },
                { label: 'State', cell: (x) => <Status value={x.status} /> },
                { label: 'Skip reason', cell: (x) => formatValue(x.skip_reason) },
                {
                  label: 'Session',
                  cell: (x) =>
                    x.session_id ? <a href={`/dashboard/sessions/${x.session_id}`}>{x.session_id}</a> : '—',
                },
                { label: 'Finished', cell: (x) => formatTime(x.finished_at) },
              ]}
            />
          ) : null}
          {contacts.data ? (
            <Pager
              hasMore={contacts.data.has_more === true}
              lastId={contacts.data.data[contacts.data.data.length - 1]?.contact_id}
            />
          ) : null}
        </section>
      )}
    </Resource>
  );
}
