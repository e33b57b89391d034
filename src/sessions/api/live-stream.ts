import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LiveMessage, SessionLive } from '../application/session-live';

/**
 * Answers a request with a session's live view as Server-Sent Events (`GET /v1/sessions/{id}/live`
 * for the tenant, `GET /rooms/{room_id}/live` for the room's participant): the events after the
 * request's `Last-Event-ID`, then each as it is stored, a comment line every 15 s, the end after
 * `ended`. `shape` gives what this reader may see of a message (null: nothing); `headers` are added
 * to the answer.
 */
export function streamLive(
  live: SessionLive,
  sessionId: string,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { shape?: (message: LiveMessage) => LiveMessage | null; headers?: Record<string, string> } = {},
): void {
  const lastEventId = Number(request.headers['last-event-id']);
  const after = Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : -1;
  // The client went away while the session was read: nothing to follow.
  if (request.raw.destroyed) return;
  void reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...opts.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'request-id': String(request.id),
  });
  raw.write(': live\n\n');
  const shape = opts.shape ?? ((m: LiveMessage) => m);
  live.follow(sessionId, after, {
    // A partial transcript has no id: Last-Event-ID stays the last stored event's.
    send: (message) => {
      const m = shape(message);
      if (!m) return;
      raw.write(`${m.id !== undefined ? `id: ${m.id}\n` : ''}event: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`);
    },
    ping: () => raw.write(': ping\n\n'),
    end: () => raw.end(),
    onClose: (listener) => raw.once('close', listener),
  });
}
