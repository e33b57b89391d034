export default async function globalTeardown() {
  const handle = globalThis.__TEST_PG__;
  if (handle) await handle.stop();
}
