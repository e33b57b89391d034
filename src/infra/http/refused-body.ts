import type { IncomingMessage } from 'node:http';

/**
 * How much of a refused request body is read (and dropped) before the answer (decision 179): a body
 * over its limit, or one refused before it was read (a 415, an upload refused half-way), is still
 * arriving when the service answers. Answering and closing at once resets the connection under a
 * client still sending (Node's `fetch` then fails with EPIPE or a reset instead of reading the 413);
 * reading the rest first lets every client read the answer, on a connection kept alive.
 */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** The request's body has not all arrived: the client is still sending it (or will). */
export function bodyStillArriving(raw: IncomingMessage): boolean {
  if (raw.complete || raw.readableEnded || raw.destroyed) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads what is left of `raw`'s body and drops it: each chunk is counted, never kept, so a drain
 * holds no more memory than the socket's own buffers. Resolves `true` once the body has ended (the
 * connection can serve the next request), `false` when it is cut off: more than `limitBytes` left
 * to read (an unread body's Content-Length says so at once), `deadlineMs` passed (a client
 * trickling its body holds the connection no longer than any other slow client), or the client
 * gone. The caller then closes the connection. Whatever else was reading the body (a multipart
 * parser) is detached first.
 */
export function drainBody(raw: IncomingMessage, limitBytes: number, deadlineMs: number): Promise<boolean> {
  if (!bodyStillArriving(raw)) return Promise.resolve(true);
  // Never read yet (refused on its Content-Length): what is left is what it declares.
  const unread = raw.readableFlowing === null ? Number(raw.headers['content-length']) : 0;
  if (unread > limitBytes || deadlineMs <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (ended: boolean): void => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onGone);
      raw.off('close', onGone);
      // Cut off: stop reading; the connection is closed after the answer.
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer | string): void => {
      read += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (read > limitBytes) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onGone = (): void => finish(raw.complete);
    const timer = setTimeout(() => finish(false), deadlineMs);
    timer.unref();
    raw.unpipe();
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onGone);
    raw.once('close', onGone);
    raw.resume();
  });
}
