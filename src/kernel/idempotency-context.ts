import { AsyncLocalStorage } from 'node:async_hooks';
import { idFromSeed, newId } from './ids';

/**
 * The Idempotency-Key of the request being served, scoped by its principal, carried to the command
 * pipeline without threading it through every command: the executor stamps it on the events it
 * appends, and a retry of the same request finds them instead of deciding again.
 */
const storage = new AsyncLocalStorage<string>();

export function withIdempotencyKey<T>(scopedKey: string, work: () => T): T {
  return storage.run(scopedKey, work);
}

/**
 * Runs the work as if no Idempotency-Key were sent: for a command that is idempotent by its own ids
 * and may be decided again within one request (counted, uncounted, counted again on a retry).
 */
export function withoutIdempotencyKey<T>(work: () => T): T {
  return storage.exit(work);
}

/** `<principal>:<key>` while serving a request that sent an Idempotency-Key; otherwise undefined. */
export function currentIdempotencyKey(): string | undefined {
  return storage.getStore();
}

/**
 * The id of a resource a command creates: random, or, under an Idempotency-Key, made from the key, so
 * that a retry of the request addresses the resource the first attempt created.
 */
export function newResourceId(prefix: string): string {
  const key = currentIdempotencyKey();
  return key === undefined ? newId(prefix) : idFromSeed(prefix, key);
}
