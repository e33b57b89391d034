/**
 * A campaign across two kill -9s of the service: the real service (node dist/main.js,
 * SIM_TIME_SCALE=0.01) runs a test-mode campaign of 50 contacts on the test pool's answered and
 * failing numbers (max_concurrency 5, no quiet hours). It is killed with SIGKILL once a random number
 * of contacts (10 to 20) have been dispatched and calls are in flight, restarted on the same
 * database, killed again a few dispatches later (at the moment a contact is seen dispatched with its
 * call not placed yet, when the poll catches one), and restarted again. Then every contact must be in
 * one terminal state, once; no contact dialled twice (one session per contact in the API, one
 * session.created in the events feed, one session.placed in the store); campaign.completed once,
 * with the right counts.
 *
 * What a kill leaves: the timers the dead process had claimed (the calls' `sim.step` chains, the
 * pacer's `campaign.pace` row or an outcome's `campaign.outcome` row when they were running) stay
 * under their 30 s lease, so the restarted service resumes them about 30 s after the kill; a contact
 * dispatched whose call was not placed is placed by its `campaign.place_call` backup timer, 15 s
 * after its dispatch. The test logs what each kill left and how long the campaign took to finish.
 */
import { CallsService, startCallsService } from '../../support/calls-harness';
import {
  createCampaign,
  dispatchedUnplaced,
  expectEveryContactOnce,
  placementDelays,
  startCampaign,
  StoreSnapshot,
  storeSnapshot,
  timersByKind,
} from '../../support/campaign-checks';
import { eventually } from '../../support/eventually';
import { killAllServices } from '../../support/process';
import { createTenant, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(240_000);

const CONTACTS = 50;
const MAX_CONCURRENCY = 5;

let h: CallsService;
let tenant: TenantInfo;
let campaignId: string;
/** What each kill left: the store's counts, the timers, the contacts dispatched with no call placed. */
const kills: { at: StoreSnapshot; timers: Record<string, { n: number; leased: number }>; unplaced: string[] }[] = [];
/** The kill condition: at least `min` contacts dispatched (and calls in flight); once `min` is reached,
 *  the kill waits up to `extra` more dispatches for a poll that sees a dispatched contact whose call
 *  is not placed yet (the window the backup placement covers). */
const killPoint =
  (min: number, extra: number) =>
  (s: StoreSnapshot): boolean =>
    s.dispatched >= min && s.dispatched > s.finished && (s.dispatched > s.placed || s.dispatched >= min + extra);

beforeAll(async () => {
  h = await startCallsService({ SIM_TIME_SCALE: '0.01' });
  tenant = await createTenant(h.call, h.svc.adminToken, 'Campaign Crash Co');
});

afterAll(async () => {
  await h?.destroy();
  await killAllServices();
});

/**
 * Polls the store every few milliseconds until `ready` holds for a snapshot, then SIGKILLs the
 * service at once and returns that snapshot (the process may have committed a little more before
 * the signal landed) with the timers it left.
 */
async function killWhen(ready: (s: StoreSnapshot) => boolean, timeoutMs: number): Promise<StoreSnapshot> {
  const seen = await eventually(
    async () => {
      const s = await storeSnapshot(h.db.pool, campaignId);
      return ready(s) ? s : false;
    },
    timeoutMs,
    2,
  );
  h.svc.kill('SIGKILL');
  expect((await h.svc.waitForExit(10_000)).signal).toBe('SIGKILL');
  const after = await storeSnapshot(h.db.pool, campaignId);
  const timers = await timersByKind(h.db.pool);
  const unplaced = await dispatchedUnplaced(h.db.pool, campaignId);
  kills.push({ at: after, timers, unplaced });
  console.log(
    `kill ${kills.length}: polled ${JSON.stringify(seen)}, stored at the kill ${JSON.stringify(after)}; ` +
      `${unplaced.length} contacts dispatched with no call placed; timers ${JSON.stringify(timers)}`,
  );
  return after;
}

describe('a campaign across kill -9s of the service', () => {
  it('dies on SIGKILL with contacts dispatched and their calls in flight', async () => {
    campaignId = await createCampaign(h.call, tenant.api_key, {
      name: 'Crash recall',
      contacts: CONTACTS,
      maxConcurrency: MAX_CONCURRENCY,
    });
    await startCampaign(h.call, tenant.api_key, campaignId);
    const threshold = 10 + Math.floor(Math.random() * 11);
    console.log(`first kill once ${threshold} contacts are dispatched`);
    const at = await killWhen(killPoint(threshold, 5), 30_000);
    expect(at.dispatched).toBeGreaterThanOrEqual(threshold);
    expect(at.dispatched).toBeLessThan(CONTACTS);
    expect(at.completed).toBe(0);
    // Calls in flight: dispatched, with no outcome yet.
    expect(at.dispatched - at.finished).toBeGreaterThan(0);
    expect(at.dispatched - at.finished).toBeLessThanOrEqual(MAX_CONCURRENCY);
  });

  it('restarted on the same database, it carries on, and dies again a few dispatches later', async () => {
    const before = kills[0]!.at.dispatched;
    await h.restart();
    const restarted = Date.now();
    const at = await killWhen(killPoint(before + 5, 5), 90_000);
    console.log(`second kill ${Math.round((Date.now() - restarted) / 1000)} s after the first restart`);
    expect(at.dispatched).toBeGreaterThan(before);
    expect(at.completed).toBe(0);
  });

  it('restarted again, every contact ends once, none is dialled twice, the campaign completes once', async () => {
    await h.restart();
    const restarted = Date.now();
    await eventually(
      async () => {
        const s = await storeSnapshot(h.db.pool, campaignId);
        if (s.completed === 0)
          throw new Error(
            `not completed: ${JSON.stringify(s)}; timers ${JSON.stringify(await timersByKind(h.db.pool))}\n${h.diagnostics()}`,
          );
        return true;
      },
      120_000,
      100,
    );
    console.log(`campaign completed ${Math.round((Date.now() - restarted) / 1000)} s after the second restart`);
    await eventually(
      async () =>
        (await h.call('GET', `/v1/campaigns/${campaignId}`, { token: tenant.api_key })).body.status === 'completed',
      20_000,
      100,
    );
    await eventually(
      () =>
        expectEveryContactOnce(h.call, tenant.api_key, h.db.pool, campaignId, {
          total: CONTACTS,
          maxConcurrency: MAX_CONCURRENCY,
        }),
      20_000,
      250,
    );

    // A contact left dispatched with no call by a kill was placed by its backup timer, once, 15 s
    // (PLACE_CALL_BACKUP_MS) or more after its dispatch; the others within moments of theirs.
    const delays = await placementDelays(h.db.pool, campaignId);
    const unplaced = new Set(kills.flatMap((k) => k.unplaced));
    for (const contact of unplaced) expect(delays.get(contact)).toBeGreaterThanOrEqual(14.9);
    const late = [...delays].filter(([c, s]) => !unplaced.has(c) && s > 1);
    const backup = [...unplaced].map((c) => `${delays.get(c)?.toFixed(1)} s`);
    console.log(
      `${unplaced.size} contacts placed by the backup timer${unplaced.size > 0 ? ` (after ${backup.join(', ')})` : ''}; ` +
        `${late.length} others placed more than 1 s after their dispatch`,
    );
    expect(h.svc.hasExited()).toBe(false);
  });
});
