import { useLocation, useRoute } from 'preact-iso';
import { api, query, type Page } from '../api';
import { useEffect, useRef } from 'preact/hooks';
import { ChartFigure, COLOURS } from '../chart';
import { formatTime, formatValue, words } from '../format';
import { Action, Fields, Filters, Id, PageTitle, Pager, Resource, Status, Table, useLoad } from '../ui';

interface Campaign {
  campaign_id: string;
  name: string;
  status: string;
  pause_reason: string | null;
  test_mode: boolean;
  total_contacts: number;
  contacts: Record<'pending' | 'dispatched' | 'completed' | 'failed' | 'skipped', number>;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}
interface Progress {
  interval: 'minute' | 'hour' | 'day';
  total_contacts: number;
  data: { at: string; completed: number; failed: number; skipped: number; finished_total: number }[];
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

const STATE_LABELS: Record<(typeof CONTACT_STATES)[number], string> = {
  pending: 'Pending',
  dispatched: 'Dispatched',
  completed: 'Completed',
  failed: 'Failed',
  skipped: 'Skipped',
};

/**
 * Only the action the campaign's status allows: "Start" a draft, "Pause" a running campaign,
 * "Resume" a paused one, none once it is over. After an action the focus moves to the group's next
 * button (or the group itself), never to the page's start.
 */
function CampaignActions({
  campaign,
  act,
  reload,
}: {
  campaign: Campaign;
  act: (verb: 'start' | 'pause' | 'resume') => () => Promise<unknown>;
  reload: () => void;
}) {
  const group = useRef<HTMLDivElement>(null);
  const acted = useRef(false);
  useEffect(() => {
    if (!acted.current) return;
    acted.current = false;
    (group.current?.querySelector<HTMLElement>('button') ?? group.current)?.focus();
  }, [campaign.status]);
  const done = () => {
    acted.current = true;
    reload();
  };
  const verb = ({ draft: ['Start', 'start'], running: ['Pause', 'pause'], paused: ['Resume', 'resume'] } as const)[
    campaign.status as 'draft' | 'running' | 'paused'
  ];
  return (
    <div class="actions" role="group" aria-label="Campaign actions" ref={group} tabIndex={-1}>
      {verb ? (
        <Action label={verb[0]} run={act(verb[1])} done={done} />
      ) : (
        <span class="muted">Nothing to do: the campaign is {words(campaign.status)}.</span>
      )}
    </div>
  );
}

/** The bucket width that gives a readable chart for the campaign's span so far. */
function intervalFor(c: Campaign): Progress['interval'] {
  const from = Date.parse(c.started_at ?? c.created_at);
  const to = c.completed_at ? Date.parse(c.completed_at) : Date.now();
  const hours = (to - from) / 3_600_000;
  return hours <= 3 ? 'minute' : hours <= 24 * 7 ? 'hour' : 'day';
}

const bucketLabel = (at: string, interval: Progress['interval']) =>
  new Intl.DateTimeFormat(
    undefined,
    interval === 'day'
      ? { dateStyle: 'medium' }
      : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  ).format(new Date(at));

/** Contacts finished per minute, hour or day, from GET /v1/campaigns/{id}/progress. */
function ProgressChart({ campaign }: { campaign: Campaign }) {
  const interval = intervalFor(campaign);
  const path = `/v1/campaigns/${encodeURIComponent(campaign.campaign_id)}/progress?interval=${interval}`;
  const progress = useLoad(() => api<Progress>('GET', path), path, campaign.status === 'running' ? 5000 : undefined);
  const p = progress.data;
  if (!p) return null;
  if (p.data.length === 0) return <p class="muted">No contact has finished yet.</p>;
  const labels = p.data.map((b) => bucketLabel(b.at, interval));
  const last = p.data[p.data.length - 1];
  return (
    <ChartFigure
      id="progress"
      title={`Progress per ${interval}`}
      category={interval === 'day' ? 'Day' : 'From'}
      type="bar"
      stacked
      labels={labels}
      summary={`${last?.finished_total ?? 0} of ${p.total_contacts} contacts finished, over ${p.data.length} ${
        p.data.length === 1 ? interval : `${interval}s`
      } with calls.`}
      series={[
        { label: 'Completed', colour: COLOURS.completed, values: p.data.map((b) => b.completed) },
        { label: 'Failed', colour: COLOURS.failed, values: p.data.map((b) => b.failed) },
        { label: 'Skipped', colour: COLOURS.skipped, values: p.data.map((b) => b.skipped) },
      ]}
    />
  );
}

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
                {
                  label: 'Progress',
                  cell: (c) => (
                    <span class="progress-cell">
                      <Progress campaign={c} />
                      <span class="nowrap">
                        {done(c)} of {c.total_contacts}
                      </span>
                    </span>
                  ),
                },
                { label: 'Test mode', cell: (c) => formatValue(c.test_mode) },
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
            {c.pause_reason ? <span class="muted"> ({words(c.pause_reason)})</span> : null}
          </p>
          <CampaignActions campaign={c} act={act} reload={campaign.reload} />
          <h2>Progress</h2>
          <Progress campaign={c} />
          <dl class="counts" aria-label="Contacts by state">
            {(['pending', 'dispatched', 'completed', 'failed', 'skipped'] as const).map((state) => (
              <div key={state}>
                <dt>{STATE_LABELS[state]}</dt>
                <dd data-testid={`count-${state}`}>{c.contacts[state]}</dd>
              </div>
            ))}
          </dl>
          <ProgressChart campaign={c} />
          <h2>Details</h2>
          <Fields
            data={c}
            omit={['contacts', 'status', 'pause_reason', 'name', 'completed_sessions', 'failed_sessions']}
          />
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
                { label: 'Skip reason', cell: (x) => (x.skip_reason ? words(x.skip_reason) : '—') },
                {
                  label: 'Session',
                  cell: (x) =>
                    x.session_id ? <Id value={x.session_id} href={`/dashboard/sessions/${x.session_id}`} /> : '—',
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
