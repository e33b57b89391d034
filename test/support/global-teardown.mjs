import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const run = globalThis.__TEST_PG__;
  if (!run) return;
  await run.handle.stop();
  rmSync(run.dir, { recursive: true, force: true });
}
