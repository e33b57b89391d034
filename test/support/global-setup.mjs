// Starts one real PostgreSQL for the whole run (the embedded one, unless DATABASE_URL points at a
// server); every test file then creates its own database on it (test/support/database.ts).
// Each run gets its own cluster directory, so runs in parallel never stop each other's server.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';

const require = createRequire(import.meta.url);

export default async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  const compiled = new URL('../../dist/infra/database/embedded-postgres.js', import.meta.url);
  if (!existsSync(compiled)) throw new Error('Run `npm run build` first (npm test does it for you).');
  const { startEmbeddedPostgres } = require(compiled.pathname);
  const dir = `.test-data/run-${process.pid}`;
  const handle = await startEmbeddedPostgres(dir, () => undefined);
  process.env.TEST_PG_ADMIN_URL = handle.url.replace(/\/platform$/, '/postgres');
  globalThis.__TEST_PG__ = { handle, dir };
}
