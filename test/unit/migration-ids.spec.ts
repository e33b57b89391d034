/**
 * Migration ids (docs/architecture.md, "Adding a bounded context"). TypeORM reads the last 13
 * characters of a migration's class name as its number, runs the pending ones in the order of that
 * number, and records each by class name in its `migrations` table. The ids released before 2026-11
 * were small numbers chosen by reading every context's migrations (`0000000000380`); a new migration
 * ends in the JavaScript timestamp of its writing (`Date.now()`, 13 digits, such as `1795636800000`),
 * which needs no look at the others and sorts after every released id.
 */
import { contextMigrations } from '../../src/app.module';
import { allMigrations } from '../../src/infra/database/migrations';

/** Released class names: recorded in databases, so each must keep its name (and so its number). */
const RELEASED = [
  'Events0000000000010',
  'PlatformTables0000000000020',
  'Tenants0000000000021',
  'AuditEvents0000000000030',
  'Webhooks0000000000040',
  'Sessions0000000000050',
  'Dnc0000000000060',
  'AuditEnvelopeJson0000000000070',
  'IdempotencySealed0000000000080',
  'DeadLetters0000000000090',
  'WebhookDeliveriesEndpointDue0000000000100',
  'TimerWakes0000000000110',
  'SessionsContactIdentity0000000000115',
  'Campaigns0000000000120',
  'SessionsToNumber0000000000130',
  'Credits0000000000140',
  'TenantsDropCreditBalance0000000000141',
  'Rooms0000000000150',
  'Voices0000000000180',
  'SessionsDirection0000000000181',
  'Numbers0000000000190',
  'DashboardSignIn0000000000200',
  'CheckpointEventStore0000000000205',
  'EventLogCopies0000000000206',
  'CheckpointEventStoreUnknown0000000000207',
  'TimersFairLeases0000000000310',
  'SessionsQueuedProduction0000000000311',
  'SessionsCallAdmissions0000000000312',
  'Rooms0000000000330',
  'Numbers0000000000340',
  'IdempotencySecretsWithheld0000000000350',
  'TenantsLowerEmail0000000000351',
  'Blobs0000000000360',
  'Voices0000000000380',
];
/** The largest id of the old numbering; every id above it is a timestamp. */
const LAST_SMALL_ID = 999;
/** 2026-01-01T00:00:00Z: no migration written as a timestamp is older. */
const FIRST_TIMESTAMP_ID = Date.UTC(2026, 0, 1);

/** Problems with a set of migrations' ids, empty when none: what this test and `npm test` check. */
function migrationIdProblems(migrations: readonly { readonly name: string }[], now = Date.now()): string[] {
  const problems: string[] = [];
  const byId = new Map<number, string>();
  for (const migration of migrations) {
    const name = migration.name;
    const digits = /(\d{13})$/.exec(name)?.[1];
    if (digits === undefined) {
      problems.push(`${name} does not end in a 13-digit id (write Date.now() at the end of its class name)`);
      continue;
    }
    const id = Number(digits);
    const other = byId.get(id);
    if (other !== undefined) problems.push(`${other} and ${name} have the same id ${digits}`);
    byId.set(id, name);
    const released = RELEASED.includes(name);
    if (!released && (id < FIRST_TIMESTAMP_ID || id > now + 86_400_000))
      problems.push(`${name}: a new migration's id is the JavaScript timestamp of its writing (Date.now())`);
    if (released && id > LAST_SMALL_ID) problems.push(`${name}: released ids are at most ${LAST_SMALL_ID}`);
  }
  return problems;
}

describe('migration ids', () => {
  const migrations = allMigrations(contextMigrations());
  const names = migrations.map((m) => m.name);

  it('every released migration keeps its class name, so that it runs once on existing databases', () => {
    expect(RELEASED.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('no two migrations share an id; new ones are timestamps', () => {
    expect(migrationIdProblems(migrations)).toEqual([]);
  });

  it('a timestamp id sorts after every released id, and two equal ids are refused', () => {
    const probes = ['Voices0000000000380', 'ProbeNew1795636800000', 'Other1795636800000', 'Guessed0000000000390'];
    expect(
      migrationIdProblems(
        probes.map((name) => ({ name })),
        Date.UTC(2026, 10, 26),
      ),
    ).toEqual([
      'ProbeNew1795636800000 and Other1795636800000 have the same id 1795636800000',
      "Guessed0000000000390: a new migration's id is the JavaScript timestamp of its writing (Date.now())",
    ]);
    // TypeORM's order: the number of the last 13 characters.
    expect(Number('1795636800000') > Number('0000000000380')).toBe(true);
  });
});
