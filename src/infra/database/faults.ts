import { Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';

/**
 * Connection and statement limits of every pooled connection: a dead server or a stuck statement
 * fails the request or the batch that waits on it, and is retried, instead of holding it forever.
 */
export const POOL_LIMITS = {
  /** Waiting for a connection (from the pool, or a new one to the server). */
  connectionTimeoutMillis: 5_000,
  /** One statement; batch paths page their work well below it. */
  statement_timeout: 60_000,
  /** A transaction left open by a stalled client is ended by the server. */
  idle_in_transaction_session_timeout: 60_000,
  keepAlive: true,
} as const;

/**
 * A lost connection must never end the process: pg emits 'error' on a client whose server went
 * away, and a client that is checked out (a processor's transaction between two statements) has no
 * listener of the pool's, so Node would throw. Every new client gets one; the statement that was
 * running fails on its own and its caller retries.
 */
export function guardPoolClients(pool: Pool): void {
  const logger = new Logger('Database');
  const guard = (client: PoolClient): void => {
    client.on('error', (err) => logger.warn(`connection lost: ${err.message}`));
  };
  pool.on('error', (err) => logger.warn(`idle connection lost: ${err.message}`));
  pool.on('connect', guard);
  // Clients the pool opened before this (TypeORM's first connection) get the listener too.
  for (const client of openedClients(pool)) guard(client);
}

/** The clients a pg Pool holds already: its `_clients`, which its typings leave out. */
function openedClients(pool: Pool): PoolClient[] {
  const clients: unknown = Reflect.get(pool, '_clients');
  return Array.isArray(clients) ? clients.filter(isPoolClient) : [];
}

function isPoolClient(value: unknown): value is PoolClient {
  return typeof value === 'object' && value !== null && 'query' in value && 'on' in value && 'release' in value;
}

// SQLSTATE classes and codes of "the server is not there right now", not of a bad statement.
const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
]);
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /client has encountered a connection error/i,
  /connection is not open|cannot use a pool after calling end/i,
];

/** Whether `err` says the database cannot be reached now (then the request gets a 503, not a 500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
