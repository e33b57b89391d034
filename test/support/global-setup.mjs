// Starts one real PostgreSQL for the whole run (the embedded one, unless DATABASE_URL points at a
// server); every test file then creates its own database on it (test/support/database.ts).
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
  const handle = await startEmbeddedPostgres('.test-data', (m) => process.stdout.write(`[test-pg] ${m}\n`));
  process.env.TEST_PG_ADMIN_URL = handle.url.replace(/\/platform$/, '/postgres');
  globalThis.__TEST_PG__ = handle;
}
