import { isDatabaseUnavailable } from '../../infra/database/faults';
import type { StoredEvent } from '../../event-store/event-store.port';

/**
 * SQLSTATE classes and codes that say nothing about the event being applied: the transaction lost a
 * race (40: serialization failure, deadlock), the server ran short (53), an operator or a timeout
 * cancelled the statement (57), the system failed (58), a lock was not granted (55P03), or an idle
 * transaction was ended (25P03). Such a failure is retried without counting as a try of the event.
 */
const TRANSIENT_CLASSES = ['40', '53', '57', '58'];
const TRANSIENT_CODES = new Set(['55P03', '25P03']);

/** Whether a failure to apply an event is about the database now rather than about the event. */
export function isTransientFailure(err: unknown): boolean {
  if (isDatabaseUnavailable(err)) return true;
  const code = (typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined) ?? null;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return false;
  return TRANSIENT_CODES.has(code) || TRANSIENT_CLASSES.includes(code.slice(0, 2));
}

/** One line describing a failure for the dead-letter row and the log: SQLSTATE (if any) and message. */
export function describeFailure(err: unknown, max = 2000): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown };
  const message = err instanceof Error || typeof e.message === 'string' ? String(e.message) : String(err);
  const code = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? `${e.code}: ` : '';
  const text = `${code}${message.split('\n')[0] ?? ''}`.replaceAll('\u0000', '\ufffd');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What the runner remembers of an event that failed in isolation, until it is applied or set aside. */
export interface EventFailure {
  readonly processor: string;
  readonly event: StoredEvent;
  attempts: number;
  readonly firstFailedAt: Date;
  lastFailedAt: Date;
  error: string;
}

/** A round that ended because one event failed and has tries left; the worker backs off and tries again. */
export class EventFailedError extends Error {
  constructor(
    readonly failure: EventFailure,
    readonly maxAttempts: number,
    override readonly cause: unknown,
  ) {
    super(
      `event ${failure.event.id} (${failure.event.type}, stream ${failure.event.streamId}) failed, ` +
        `try ${failure.attempts} of ${maxAttempts}: ${failure.error}`,
    );
    this.name = 'EventFailedError';
  }
}
