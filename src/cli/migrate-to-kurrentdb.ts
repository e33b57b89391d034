import { Pool } from 'pg';
import { contextMigrations, loadAppConfig } from '../app.module';
import { ConfigError } from '../config/config';
import { normalizeConnectionString, redact } from '../event-store/kurrentdb/kurrentdb-connection';
import { KurrentDbEventStore } from '../event-store/kurrentdb/kurrentdb-event-store';
import {
  copyLog,
  DEFAULT_MAX_APPEND_BYTES,
  loadCopyPosition,
  moveCheckpoints,
  saveCopyPosition,
} from '../event-store/migration/copy-log';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store';
import { startEmbeddedPostgres } from '../infra/database/embedded-postgres';
import { migrateDatabase } from '../infra/database/migrations';

const USAGE = `npm run events:migrate-to-kurrentdb -- --to <connection string> [--checkpoints] [--batch N] [--max-append-bytes N]

Copies the PostgreSQL event log (DATABASE_URL, or the embedded database in DATA_DIR) into KurrentDB
in commit order, preserving event ids; resumable: run it again and it goes on where it stopped.
--to            the KurrentDB connection string (default: EVENTSTORE_URL)
--checkpoints   then move every processor checkpoint to the same place in KurrentDB's log;
                only with every instance stopped, once the copy is complete (docs/kurrentdb.md)
--batch N       events per page (default 1000)
--max-append-bytes N
                at most N bytes of serialized events per append (default 524288), under the
                server's MaxAppendSize (1 MiB by default); a larger event is sent alone`;

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value\n\n${USAGE}`);
  return value;
}

/** `npm run events:migrate-to-kurrentdb`: see USAGE and docs/kurrentdb.md. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // The source is PostgreSQL whatever EVENTSTORE_URL says: it names the target here.
  const config = loadAppConfig({ ...process.env, EVENTSTORE_URL: undefined });
  const to = option(args, '--to') ?? process.env['EVENTSTORE_URL']?.trim();
  if (!to) throw new Error(`no target: pass --to or set EVENTSTORE_URL\n\n${USAGE}`);
  normalizeConnectionString(to); // a bad one is refused before anything starts
  const batchSize = Number(option(args, '--batch') ?? 1000);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new Error('--batch must be a positive integer');
  const maxAppendBytes = Number(option(args, '--max-append-bytes') ?? DEFAULT_MAX_APPEND_BYTES);
  if (!Number.isSafeInteger(maxAppendBytes) || maxAppendBytes < 1) {
    throw new Error('--max-append-bytes must be a positive integer');
  }

  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(config.dataDir);
  const databaseUrl = config.databaseUrl ?? embedded?.url ?? '';
  await migrateDatabase(databaseUrl, contextMigrations());
  const pool = new Pool({ connectionString: databaseUrl, max: 4 });
  const source = new PostgresEventStore(pool);
  const target = KurrentDbEventStore.connect(to);
  try {
    const from = await loadCopyPosition(pool, target.identity);
    process.stdout.write(
      `copying the PostgreSQL event log to ${redact(to)} from ${from.commit < 0n ? 'the start' : `(${from.commit}, ${from.prepare})`}\n`,
    );
    const started = Date.now();
    const done = await copyLog(source, target, {
      from,
      batchSize,
      maxAppendBytes,
      onPage: async (progress) => {
        await saveCopyPosition(pool, target.identity, progress);
        const rate = Math.round(progress.copied / Math.max(1, (Date.now() - started) / 1000));
        process.stdout.write(`  ${progress.copied} events copied (${rate}/s)\n`);
      },
    });
    process.stdout.write(
      `copied ${done.copied} events; the copy is at (${done.position.commit}, ${done.position.prepare})\n`,
    );
    if (args.includes('--checkpoints')) {
      for (const moved of await moveCheckpoints(pool, source, target)) {
        process.stdout.write(
          `checkpoint ${moved.name}: (${moved.from.commit}, ${moved.from.prepare}) -> (${moved.to.commit}, ${moved.to.prepare})\n`,
        );
      }
      process.stdout.write('checkpoints moved: start the platform with EVENTSTORE_URL set\n');
    }
  } finally {
    await source.close();
    await target.close();
    await pool.end();
    if (embedded?.startedHere) await embedded.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : `events:migrate-to-kurrentdb failed: ${err instanceof Error ? err.message : String(err)}`}\n`,
  );
  process.exit(1);
});
