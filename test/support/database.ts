import { randomBytes } from 'node:crypto';
import { contextMigrations } from '../../src/app.module';
import { Client, Pool } from 'pg';
import { migrateDatabase } from '../../src/infra/database/migrations';

function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url)
    throw new Error('TEST_PG_ADMIN_URL is not set: run the suite through jest (global setup starts PostgreSQL)');
  return url;
}

export interface TestDatabase {
  readonly url: string;
  readonly pool: Pool;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the run's real PostgreSQL server, dropped at the end of the file. */
export async function createTestDatabase(
  options: { migrate?: boolean; poolSize?: number } = {},
): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const pool = new Pool({ connectionString: url.toString(), max: options.poolSize ?? 20 });
  // Dropping the database (WITH FORCE) terminates whatever is still connected; an idle client's
  // error then must not crash the test file.
  pool.on('error', () => undefined);
  if (options.migrate !== false) await migrateDatabase(url.toString(), contextMigrations());
  return {
    url: url.toString(),
    pool,
    drop: async () => {
      await pool.end();
      const c = new Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
