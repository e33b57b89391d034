/**
 * Helpers for the campaign e2e suites that stress the pacer (a kill -9, two instances): a test-mode
 * campaign on the test pool's numbers, what the event store holds about it, and the exactly-once
 * checks every such suite ends with: each contact in one terminal state once, dialled at most once
 * (one session per contact in the API, one session.placed per contact in the store), and one
 * campaign.completed with the right counts.
 */
import type { Pool } from 'pg';
import { allEvents } from './calls-harness';
import type { ApiCall, Envelope } from './webhooks-harness';

/** No quiet hours: the campaign calls whatever the time of day the suite runs at. */
export const ALWAYS = { start: '00:00', end: '00:00' };

/** The test pool's completed call, then its no-answer, busy, voicemail and carrier-error numbers. */
export const MIXED_NUMBERS = ['+14155550100', '+14155550101', '+14155550102', '+14155550103', '+14155550104'];
export const ANSWERED_NUMBER = '+14155550100';

/** A test-mode campaign of `contacts` contacts over MIXED_NUMBERS, created as a draft. */
export async function createCampaign(
  call: ApiCall,
  apiKey: string,
  opts: { name: string; contacts: number; maxConcurrency: number },
): Promise<string> {
  const res = await call<{ campaign_id: string }>('POST', '/v1/campaigns', {
    token: apiKey,
    body: {
      name: opts.name,
      from_number: '+14155550000',
      test_mode: true,
      agent_config: { prompt: 'You are Ava.' },
      // Every number is called many times: the daily cap must not skip any contact.
      settings: { max_concurrency: opts.maxConcurrency, quiet_hours: ALWAYS, max_calls_per_number_per_day: 100 },
      contacts: Array.from({ length: opts.contacts }, (_, i) => ({
        phone_number: MIXED_NUMBERS[i % MIXED_NUMBERS.length],
        first_name: `Contact ${i}`,
      })),
    },
  });
  if (res.status !== 201) throw new Error(`POST /v1/campaigns: ${res.status} ${res.text}`);
  return res.body.campaign_id;
}

export async function startCampaign(call: ApiCall, apiKey: string, campaignId: string): Promise<void> {
  const res = await call('POST', `/v1/campaigns/${campaignId}/start`, { token: apiKey });
  if (res.status !== 200) throw new Error(`start: ${res.status} ${res.text}`);
}

/** Every page of a `{data, has_more}` list, following `starting_after` with the given id field. */
export async function allPages<T extends Record<string, unknown>>(
  call: ApiCall,
  apiKey: string,
  path: string,
  idField: keyof T & string,
): Promise<T[]> {
  const out: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 0; page < 1000; page++) {
    const after = out.length > 0 ? `&starting_after=${String(out[out.length - 1]![idField])}` : '';
    const res = await call<{ data: T[]; has_more: boolean }>('GET', `${path}${sep}limit=100${after}`, {
      token: apiKey,
    });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    out.push(...res.body.data);
    if (!res.body.has_more || res.body.data.length === 0) return out;
  }
  throw new Error(`GET ${path}: too many pages`);
}

/** One consistent snapshot of the campaign in the event store (one statement). */
export interface StoreSnapshot {
  dispatched: number;
  finished: number;
  placed: number;
  completed: number;
}

export async function storeSnapshot(pool: Pool, campaignId: string): Promise<StoreSnapshot> {
  const { rows } = await pool.query<StoreSnapshot>(
    `SELECT count(*) FILTER (WHERE type = 'campaign.contact_dispatched')::int AS dispatched,
            count(*) FILTER (WHERE type IN ('campaign.contact_completed', 'campaign.contact_failed'))::int AS finished,
            count(*) FILTER (WHERE type = 'session.placed')::int AS placed,
            count(*) FILTER (WHERE type = 'campaign.completed')::int AS completed
     FROM events WHERE data->>'campaign_id' = $1`,
    [campaignId],
  );
  return rows[0]!;
}

/** Timers by kind: how many, and how many are held under a live lease (claimed by a process). */
export async function timersByKind(pool: Pool): Promise<Record<string, { n: number; leased: number }>> {
  const { rows } = await pool.query<{ kind: string; n: number; leased: number }>(
    `SELECT kind, count(*)::int AS n, count(*) FILTER (WHERE locked_until > now())::int AS leased
     FROM timers GROUP BY kind ORDER BY kind`,
  );
  return Object.fromEntries(rows.map((r) => [r.kind, { n: r.n, leased: r.leased }]));
}

/** Contacts dispatched whose call is not placed (no session.placed in the store). */
export async function dispatchedUnplaced(pool: Pool, campaignId: string): Promise<string[]> {
  const { rows } = await pool.query<{ contact: string }>(
    `SELECT d.data->>'contact_id' AS contact FROM events d
     WHERE d.type = 'campaign.contact_dispatched' AND d.data->>'campaign_id' = $1
       AND NOT EXISTS (SELECT 1 FROM events p WHERE p.type = 'session.placed' AND p.data->>'contact_id' = d.data->>'contact_id')`,
    [campaignId],
  );
  return rows.map((r) => r.contact);
}

/** For each contact, seconds from its dispatch to its call's session.placed (the events' created_at). */
export async function placementDelays(pool: Pool, campaignId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ contact: string; s: number }>(
    `SELECT d.data->>'contact_id' AS contact,
            extract(epoch FROM (p.metadata->>'created_at')::timestamptz - (d.metadata->>'created_at')::timestamptz)::float8 AS s
     FROM events d JOIN events p ON p.type = 'session.placed' AND p.data->>'contact_id' = d.data->>'contact_id'
     WHERE d.type = 'campaign.contact_dispatched' AND d.data->>'campaign_id' = $1`,
    [campaignId],
  );
  return new Map(rows.map((r) => [r.contact, r.s]));
}

interface ContactView extends Record<string, unknown> {
  contact_id: string;
  phone_number: string;
  status: string;
  session_id: string | null;
}

interface SessionView extends Record<string, unknown> {
  session_id: string;
  contact_id: string | null;
  campaign_id: string | null;
}

const OUTCOME_TYPES = ['campaign.contact_completed', 'campaign.contact_failed', 'campaign.contact_skipped'];

/**
 * The checks of a finished campaign whose contacts were all valid, callable test numbers
 * (MIXED_NUMBERS): every contact dispatched once and finished once (completed for the answered
 * number, failed for the others), one session per contact, campaign.completed once, and never
 * more than `maxConcurrency` contacts between dispatch and outcome. Returns the contacts as the API
 * lists them.
 */
export async function expectEveryContactOnce(
  call: ApiCall,
  apiKey: string,
  pool: Pool,
  campaignId: string,
  { total, maxConcurrency }: { total: number; maxConcurrency: number },
): Promise<ContactView[]> {
  // The API's lists: every contact terminal, with its own session.
  const contacts = await allPages<ContactView>(call, apiKey, `/v1/campaigns/${campaignId}/contacts`, 'contact_id');
  expect(contacts).toHaveLength(total);
  expect(new Set(contacts.map((c) => c.contact_id)).size).toBe(total);
  for (const c of contacts)
    expect({ contact: c.contact_id, status: c.status }).toEqual({
      contact: c.contact_id,
      status: c.phone_number === ANSWERED_NUMBER ? 'completed' : 'failed',
    });
  const answered = contacts.filter((c) => c.phone_number === ANSWERED_NUMBER).length;

  const sessions = await allPages<SessionView>(call, apiKey, `/v1/sessions?campaign_id=${campaignId}`, 'session_id');
  expect(sessions).toHaveLength(total);
  expect(new Set(sessions.map((s) => s.contact_id)).size).toBe(total);
  const sessionOf = new Map(contacts.map((c) => [c.contact_id, c.session_id]));
  for (const s of sessions) expect(sessionOf.get(s.contact_id!)).toBe(s.session_id);

  // The events feed: one dispatch, one outcome and one session.created per contact; one completion.
  const feed = (await allEvents(call, apiKey)).filter((e) => e.data.campaign_id === campaignId);
  const perContact = (types: string[]) => countBy(feed.filter((e) => types.includes(e.type)));
  const expectOncePerContact = (counts: Map<string, number>, what: string) => {
    const wrong = contacts.filter((c) => counts.get(c.contact_id) !== 1);
    expect({ what, wrong: wrong.map((c) => [c.contact_id, counts.get(c.contact_id) ?? 0]) }).toEqual({
      what,
      wrong: [],
    });
    expect(counts.size).toBe(total);
  };
  expectOncePerContact(perContact(['campaign.contact_dispatched']), 'contact_dispatched');
  expectOncePerContact(perContact(OUTCOME_TYPES), 'one outcome');
  expectOncePerContact(perContact(['session.created']), 'session.created');
  const completions = feed.filter((e) => e.type === 'campaign.completed');
  expect(completions).toHaveLength(1);
  expect(completions[0]!.data).toMatchObject({
    campaign_id: campaignId,
    total_contacts: total,
    completed_sessions: answered,
    failed_sessions: total - answered,
  });
  expect(feed.filter((e) => e.type === 'campaign.contact_completed')).toHaveLength(answered);

  // The store itself: one session.placed per contact, one terminal event per session, and no
  // simulated step of any call applied twice.
  const { rows: placed } = await pool.query<{ contact: string; n: number }>(
    `SELECT data->>'contact_id' AS contact, count(*)::int AS n FROM events
     WHERE type = 'session.placed' AND data->>'campaign_id' = $1 GROUP BY 1`,
    [campaignId],
  );
  expectOncePerContact(new Map(placed.map((r) => [r.contact, r.n])), 'session.placed in the store');
  const { rows: terminal } = await pool.query<{ sid: string; n: number }>(
    `SELECT data->>'session_id' AS sid, count(*)::int AS n FROM events
     WHERE type IN ('session.ended', 'session.failed') AND data->>'campaign_id' = $1 GROUP BY 1`,
    [campaignId],
  );
  expect(terminal).toHaveLength(total);
  expect(terminal.filter((r) => r.n !== 1)).toEqual([]);
  const { rows: replayed } = await pool.query(
    `SELECT e.stream_id, e.data->>'seq' AS seq, count(*)::int AS n FROM events e
     WHERE e.type = 'session.signal_applied' AND e.stream_id IN (
       SELECT stream_id FROM events WHERE type = 'session.placed' AND data->>'campaign_id' = $1)
     GROUP BY 1, 2 HAVING count(*) > 1`,
    [campaignId],
  );
  expect(replayed).toEqual([]);
  expect(await mostLive(pool, campaignId)).toBeLessThanOrEqual(maxConcurrency);

  // The campaign as the API shows it.
  const view = await call('GET', `/v1/campaigns/${campaignId}`, { token: apiKey });
  expect(view.body).toMatchObject({
    status: 'completed',
    total_contacts: total,
    completed_sessions: answered,
    failed_sessions: total - answered,
    contacts: { pending: 0, dispatched: 0, completed: answered, failed: total - answered, skipped: 0 },
  });
  return contacts;
}

/** The most contacts between dispatch and outcome at once, in the campaign stream's own order (exact). */
export async function mostLive(pool: Pool, campaignId: string): Promise<number> {
  const { rows } = await pool.query<{ type: string }>(
    `SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`,
    [`campaign-${campaignId}`],
  );
  let live = 0;
  let most = 0;
  for (const { type } of rows) {
    if (type === 'campaign.contact_dispatched') live++;
    if (type === 'campaign.contact_completed' || type === 'campaign.contact_failed') live--;
    most = Math.max(most, live);
  }
  if (rows.length === 0) throw new Error(`no stream campaign-${campaignId}`);
  return most;
}

function countBy(events: Envelope[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    const id = String(e.data.contact_id);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
