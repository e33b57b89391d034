import { DataSource, type QueryRunner } from 'typeorm';
import { EVENTS_SCHEMA_SQL } from '../../event-store/postgres/postgres-event-store';
import { ForwardOnlyMigration, type Migration } from './migration';

/** Was 0001_events. */
export class Events0000000000010 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(EVENTS_SCHEMA_SQL);
  }
}

/** Was 0002_core. The tenants tables were here before contexts owned their migrations (now Tenants0000000000021). */
export class PlatformTables0000000000020 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
  CREATE TABLE IF NOT EXISTS projection_checkpoints (
    name text PRIMARY KEY,
    commit_position bigint NOT NULL,
    prepare_position bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS timers (
    timer_id uuid PRIMARY KEY,
    kind text NOT NULL,
    dedupe_key text UNIQUE,
    due_at timestamptz NOT NULL,
    payload jsonb NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS timers_due ON timers (due_at);
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant_id text NOT NULL,
    key text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    request_hash text NOT NULL,
    status text NOT NULL,
    response_status integer,
    response_body jsonb,
    locked_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, key)
  );
  `);
  }
}

/** Was 0008_idempotency_sealed. Stored idempotent responses can carry a secret shown once (a new API key): sealed like other secrets. */
export class IdempotencySealed0000000000080 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(
      'ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS response_sealed text; ALTER TABLE idempotency_keys DROP COLUMN IF EXISTS response_body',
    );
  }
}

/**
 * Events a processor could not apply after PROCESSOR_MAX_ATTEMPTS tries, set aside so that the
 * processor moves on (src/runtime/processing/processor-runner.ts,
 * docs/decisions/0023-a-poison-event-is-set-aside-as-a-dead-letter-after-n-tries.md). `seq` orders
 * the operator's list (newest first) and is its cursor; one row per processor and event.
 */
export class DeadLetters0000000000090 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
  CREATE TABLE IF NOT EXISTS dead_letters (
    id text PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    processor text NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    stream_id text NOT NULL,
    stream_position integer NOT NULL,
    commit_position bigint NOT NULL,
    prepare_position bigint NOT NULL,
    tenant_id text,
    error text NOT NULL,
    attempts integer NOT NULL,
    status text NOT NULL DEFAULT 'dead' CHECK (status IN ('dead', 'retried')),
    first_failed_at timestamptz NOT NULL,
    last_failed_at timestamptz NOT NULL,
    retried_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (processor, event_id)
  );
  CREATE INDEX IF NOT EXISTS dead_letters_processor_seq ON dead_letters (processor, seq DESC);
  CREATE INDEX IF NOT EXISTS dead_letters_open ON dead_letters (processor) WHERE status = 'dead';
  `);
  }
}

/**
 * A timer woken (`TimersService.wake`) while it runs must run again once done: `wakes` counts the
 * wake-ups, and a run only deletes or reschedules its row if none came since it claimed it.
 */
export class TimerWakes0000000000110 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE timers ADD COLUMN IF NOT EXISTS wakes integer NOT NULL DEFAULT 0');
  }
}

/**
 * Runs `ALTER TABLE …` (which waits for an ACCESS EXCLUSIVE lock) without stalling the table's users:
 * while it waits, every later lock request on the table queues behind it, so a long rebuild holding a
 * checkpoint row would hold every checkpoint query up. It waits at most `timeoutMs` (lock_timeout),
 * gives way, and tries again, in a savepoint of the migration's transaction.
 */
export async function alterWithLockTimeout(
  db: { query(sql: string): Promise<unknown> },
  sql: string,
  { timeoutMs = 2000, attempts = 30, pauseMs = 500 } = {},
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await db.query('SAVEPOINT alter_with_lock_timeout');
    try {
      await db.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
      await db.query(sql);
      await db.query('SET LOCAL lock_timeout = DEFAULT');
      await db.query('RELEASE SAVEPOINT alter_with_lock_timeout');
      return;
    } catch (err) {
      await db.query('ROLLBACK TO SAVEPOINT alter_with_lock_timeout');
      // 55P03 lock_not_available: someone holds the table; anything else is a real failure
      if ((err as { code?: unknown }).code !== '55P03') throw err;
      if (attempt >= attempts) {
        throw new Error(
          `${sql.split('\n')[0]}: the table stayed locked for ${attempts} tries (a long transaction such as a ` +
            `rebuild holds it); start again once it is done`,
          { cause: err },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/**
 * Which event store's log a checkpoint's position belongs to (`EventStore.identity`): a processor
 * refuses a checkpoint written against another store (switching EVENTSTORE_URL) instead of reading
 * KurrentDB from PostgreSQL positions. As first released it labelled every existing row `postgresql`,
 * which was wrong for installations run on KurrentDB (docker-compose sets EVENTSTORE_URL):
 * CheckpointEventStoreUnknown0000000000207 undoes that guess.
 */
export class CheckpointEventStore0000000000205 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await alterWithLockTimeout(
      db,
      `ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS event_store text NOT NULL DEFAULT 'postgresql'`,
    );
  }
}

/**
 * Progress of `npm run events:migrate-to-kurrentdb` (src/event-store/migration/copy-log.ts): per
 * target, the source position up to which the log is copied, so that a copy started again resumes.
 */
export class EventLogCopies0000000000206 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
  CREATE TABLE IF NOT EXISTS event_log_copies (
    target text PRIMARY KEY,
    commit_position bigint NOT NULL,
    prepare_position bigint NOT NULL,
    copied bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`);
  }
}

/**
 * Checkpoints recorded before they named their store have no store (`event_store` NULL): the next
 * store to read one claims it, as it claims a checkpoint at the start (decision 52). The `postgresql`
 * that CheckpointEventStore0000000000205 put on every existing row was a guess, and on a database
 * where it already ran it cannot be told from a recorded `postgresql`: every such row goes back to
 * NULL (a PostgreSQL instance claims it again at its next start), and the column has no default
 * (every writer names its store). Rows labelled `kurrentdb` were recorded, and stay.
 */
export class CheckpointEventStoreUnknown0000000000207 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await alterWithLockTimeout(
      db,
      'ALTER TABLE projection_checkpoints ALTER COLUMN event_store DROP NOT NULL, ALTER COLUMN event_store DROP DEFAULT',
    );
    await db.query(`UPDATE projection_checkpoints SET event_store = NULL WHERE event_store = 'postgresql'`);
  }
}

/**
 * The blob store's tables (src/infra/blobs/postgres-blob-store.ts): `blobs` names each stored file
 * (recordings, voice samples) and points at its content, whose bytes are `blob_chunks` rows of 1 MiB.
 * Keys compare bytewise (COLLATE "C"), so that a prefix (`voices/voi_…/`) is found through the index.
 */
export class Blobs0000000000360 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
  CREATE TABLE IF NOT EXISTS blobs (
    key text COLLATE "C" PRIMARY KEY,
    content_id uuid NOT NULL,
    content_type text NOT NULL,
    size bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS blobs_content ON blobs (content_id);
  CREATE TABLE IF NOT EXISTS blob_chunks (
    content_id uuid NOT NULL,
    seq integer NOT NULL,
    bytes bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (content_id, seq)
  );
  -- Out of line, uncompressed: audio hardly compresses, and compressing 1 MiB per row costs CPU.
  ALTER TABLE blob_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;
  `);
  }
}

/**
 * A replayed Idempotency-Key never shows a secret again (decision 63): stored answers keep no secret,
 * and `secrets_withheld` names what was left out. Answers stored before, on the routes that answer
 * with a secret (a tenant, an API key, a webhook endpoint, a rotated secret), are dropped.
 */
export class IdempotencySecretsWithheld0000000000350 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS secrets_withheld text');
    await db.query(`
  UPDATE idempotency_keys SET response_sealed = NULL,
    secrets_withheld = CASE WHEN path LIKE '/v1/webhook_endpoints%' THEN 'secret' ELSE 'api_key' END
  WHERE status = 'completed' AND response_status < 400 AND method = 'POST'
    AND (path IN ('/admin/v1/tenants', '/v1/webhook_endpoints')
      OR path ~ '^/admin/v1/tenants/[^/]+/api_keys$'
      OR path ~ '^/v1/webhook_endpoints/[^/]+/rotate_secret$')`);
  }
}

/**
 * Timers fair across tenants, with renewable leases and parks (src/runtime/timers/timer-claims.ts):
 * `tenant_id` (every timer's payload names its tenant: backfilled from it; '' for none) for fair
 * claims; `lease_id`, the claim's token, so that renewals and completions touch only their own
 * claim; `held_on`, the key a parked timer waits on (a tenant's dispatch hold) until released.
 */
export class TimersFairLeases0000000000310 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await alterWithLockTimeout(
      db,
      `ALTER TABLE timers ADD COLUMN IF NOT EXISTS tenant_id text NOT NULL DEFAULT '',
         ADD COLUMN IF NOT EXISTS lease_id uuid, ADD COLUMN IF NOT EXISTS held_on text`,
    );
    await db.query(
      `UPDATE timers SET tenant_id = payload->>'tenant_id' WHERE tenant_id = '' AND jsonb_typeof(payload->'tenant_id') = 'string'`,
    );
    await db.query('CREATE INDEX IF NOT EXISTS timers_tenant_due ON timers (tenant_id, due_at)');
    await db.query('CREATE INDEX IF NOT EXISTS timers_held_on ON timers (held_on) WHERE held_on IS NOT NULL');
  }
}

/**
 * The platform's own migrations; each bounded context brings its own (`<context>.migrations.ts`,
 * listed by its module). All are forward-only and run in the order of the number that ends their
 * class name, whichever list they come from.
 */
export const PLATFORM_MIGRATIONS: readonly Migration[] = [
  Events0000000000010,
  PlatformTables0000000000020,
  IdempotencySealed0000000000080,
  DeadLetters0000000000090,
  TimerWakes0000000000110,
  CheckpointEventStore0000000000205,
  EventLogCopies0000000000206,
  CheckpointEventStoreUnknown0000000000207,
  Blobs0000000000360,
  IdempotencySecretsWithheld0000000000350,
  TimersFairLeases0000000000310,
];

export function allMigrations(contextMigrations: readonly Migration[] = []): Migration[] {
  return [...PLATFORM_MIGRATIONS, ...contextMigrations];
}

/** The key the runner before TypeORM took too: an old and a new instance starting together still take turns. */
const MIGRATION_LOCK = 7210001;

/**
 * Runs the data source's pending migrations, each in its own transaction, while a session-level
 * advisory lock is held on another connection, so that several instances starting together apply
 * each once (TypeORM's runner takes no lock of its own).
 */
export async function migrate(dataSource: DataSource): Promise<void> {
  const numbers = new Map<number, string>();
  for (const migration of dataSource.migrations) {
    const name = migration.name ?? migration.constructor.name;
    const number = Number(name.slice(-13));
    const other = numbers.get(number);
    // TypeORM refuses two equal names but would order two equal numbers by list position.
    if (other !== undefined) throw new Error(`migrations ${other} and ${name} have the same number`);
    numbers.set(number, name);
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    await lock.release();
  }
}

/** For callers without Nest (test support, benchmarks): migrates the database at `url` and disconnects. */
export async function migrateDatabase(url: string, contextMigrations: readonly Migration[] = []): Promise<void> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    migrations: allMigrations(contextMigrations),
    logging: false,
    extra: { max: 2 },
  });
  await dataSource.initialize();
  try {
    await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
