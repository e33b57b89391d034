/**
 * Two service processes on one database run one campaign: 100 test-mode contacts on the test pool's
 * answered and failing numbers, max_concurrency 10, SIM_TIME_SCALE=0.01, created and started
 * through instance A. They share the timers table (claims with FOR UPDATE SKIP LOCKED under a lease:
 * the campaign's one `campaign.pace` row is its pacer's lease) and the processor checkpoints. The
 * campaign must complete with every contact finished once and none dialled twice (the checks of
 * campaign-checks.ts), through either instance's API.
 *
 * That both instances did the campaign's work is shown from the database itself: each instance
 * connects with its own `application_name` (PGAPPNAME), and triggers that this test adds to its
 * own database record which connection claimed each timer (an UPDATE that raises `attempts`) and
 * which appended each campaign and session event. Both must have claimed campaign timers (pacer
 * rounds, outcomes, the calls' simulator chains) and appended campaign events. Nothing in the
 * service is changed for it.
 */
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { killAllServices, makeDataDir, removeDataDir, ServiceProcess, startService } from '../../support/process';
import {
  createCampaign,
  expectEveryContactOnce,
  startCampaign,
  storeSnapshot,
  timersByKind,
} from '../../support/campaign-checks';
import { apiClient, ApiCall, createTenant, newSecretKey, TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

const CONTACTS = 100;
const MAX_CONCURRENCY = 10;
const APPS = ['vap_instance_a', 'vap_instance_b'] as const;

/** Test-only instrumentation of this test's database: who claimed each timer, who appended each event. */
const WHO_DID_WHAT = `
CREATE TABLE test_claims (app text NOT NULL, kind text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE FUNCTION test_record_claim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO test_claims (app, kind) VALUES (current_setting('application_name'), NEW.kind);
  RETURN NEW;
END $$;
CREATE TRIGGER test_record_claim AFTER UPDATE ON timers
  FOR EACH ROW WHEN (NEW.attempts > OLD.attempts) EXECUTE FUNCTION test_record_claim();
CREATE TABLE test_appends (app text NOT NULL, type text NOT NULL);
CREATE FUNCTION test_record_append() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO test_appends (app, type) VALUES (current_setting('application_name'), NEW.type);
  RETURN NEW;
END $$;
CREATE TRIGGER test_record_append AFTER INSERT ON events
  FOR EACH ROW WHEN (NEW.type LIKE 'campaign.contact_%' OR NEW.type = 'session.placed') EXECUTE FUNCTION test_record_append();
`;

let db: TestDatabase;
let dataDirs: string[];
let a: ServiceProcess;
let b: ServiceProcess;
let callA: ApiCall;
let callB: ApiCall;
let tenant: TenantInfo;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 5 });
  await db.pool.query(WHO_DID_WHAT);
  dataDirs = [makeDataDir(), makeDataDir()];
  const common = {
    DATABASE_URL: db.url,
    WEBHOOK_SECRET_KEY: newSecretKey(),
    SIM_TIME_SCALE: '0.01',
    LOG_LEVEL: 'warn',
  };
  a = await startService({ env: { ...common, DATA_DIR: dataDirs[0]!, PGAPPNAME: APPS[0] } });
  b = await startService({ env: { ...common, DATA_DIR: dataDirs[1]!, PGAPPNAME: APPS[1] }, adminToken: a.adminToken });
  callA = apiClient(() => a.baseUrl).call;
  callB = apiClient(() => b.baseUrl).call;
  tenant = await createTenant(callA, a.adminToken, 'Twin Campaign Co');
});

afterAll(async () => {
  await killAllServices();
  await db?.drop();
  for (const d of dataDirs ?? []) removeDataDir(d);
});

/** Rows per application name and kind (or type). */
async function byApp(table: 'test_claims' | 'test_appends', column: 'kind' | 'type') {
  const { rows } = await db.pool.query<{ app: string; what: string; n: number }>(
    `SELECT app, ${column} AS what, count(*)::int AS n FROM ${table} GROUP BY 1, 2 ORDER BY 2, 1`,
  );
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) (out[r.what] ??= {})[r.app] = r.n;
  return out;
}

describe('one campaign run by two service instances on one database', () => {
  it('each instance connects under its own application_name', async () => {
    const { rows } = await db.pool.query<{ app: string }>(
      `SELECT DISTINCT application_name AS app FROM pg_stat_activity WHERE datname = current_database()`,
    );
    expect(rows.map((r) => r.app)).toEqual(expect.arrayContaining([...APPS]));
  });

  it('100 contacts at max_concurrency 10: the campaign completes, every contact once, none dialled twice', async () => {
    const campaignId = await createCampaign(callA, tenant.api_key, {
      name: 'Twin recall',
      contacts: CONTACTS,
      maxConcurrency: MAX_CONCURRENCY,
    });
    const started = Date.now();
    await startCampaign(callA, tenant.api_key, campaignId);
    await eventually(
      async () => {
        const s = await storeSnapshot(db.pool, campaignId);
        if (s.completed === 0)
          throw new Error(`not completed: ${JSON.stringify(s)}; timers ${JSON.stringify(await timersByKind(db.pool))}`);
        return true;
      },
      120_000,
      100,
    );
    console.log(`campaign of ${CONTACTS} completed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Instance B's API shows what both did.
    await eventually(
      async () =>
        (await callB('GET', `/v1/campaigns/${campaignId}`, { token: tenant.api_key })).body.status === 'completed',
      20_000,
      100,
    );
    await eventually(
      () =>
        expectEveryContactOnce(callB, tenant.api_key, db.pool, campaignId, {
          total: CONTACTS,
          maxConcurrency: MAX_CONCURRENCY,
        }),
      20_000,
      250,
    );
    await expectEveryContactOnce(callA, tenant.api_key, db.pool, campaignId, {
      total: CONTACTS,
      maxConcurrency: MAX_CONCURRENCY,
    });

    // Both instances worked on it: each claimed campaign timers and appended campaign events.
    const claims = await byApp('test_claims', 'kind');
    const appends = await byApp('test_appends', 'type');
    console.log(`timers claimed, by kind and instance: ${JSON.stringify(claims)}`);
    console.log(`events appended, by type and instance: ${JSON.stringify(appends)}`);
    const campaignClaims = (app: string) =>
      ['campaign.pace', 'campaign.outcome', 'sim.step'].reduce((sum, kind) => sum + (claims[kind]?.[app] ?? 0), 0);
    const campaignAppends = (app: string) =>
      Object.entries(appends)
        .filter(([type]) => type.startsWith('campaign.contact_'))
        .reduce((sum, [, counts]) => sum + (counts[app] ?? 0), 0);
    for (const app of APPS) {
      expect({ app, claims: campaignClaims(app) > 0 }).toEqual({ app, claims: true });
      expect({ app, appends: campaignAppends(app) > 0 }).toEqual({ app, appends: true });
    }
    // Every append came from one of the two instances, and each contact's placement was appended once.
    const apps = new Set(Object.values(appends).flatMap((counts) => Object.keys(counts)));
    expect([...apps].sort()).toEqual([...APPS]);
    expect(Object.values(appends['session.placed'] ?? {}).reduce((s, n) => s + n, 0)).toBe(CONTACTS);
    expect(a.hasExited() || b.hasExited()).toBe(false);
  });
});
