/**
 * Polls `fn` until it returns without throwing (and, when it returns a boolean, until it returns true),
 * then resolves with its value. On timeout, rethrows the last failure so the test shows why.
 */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = new Error('condition never evaluated');
  for (;;) {
    try {
      const value = await fn();
      if (value !== false) return value as Exclude<T, false>;
      lastError = new Error('condition returned false');
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? lastError.message : String(lastError);
      const wrapped = new Error(`eventually: not satisfied within ${timeoutMs} ms: ${reason}`);
      if (lastError instanceof Error && lastError.stack) wrapped.stack = `${wrapped.message}\n${lastError.stack}`;
      throw wrapped;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
