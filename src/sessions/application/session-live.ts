/**
 * A session as it happens (`GET /v1/sessions/{id}/live`, docs/conversations-api.md, "Live view"): its
 * stream of events, read from the event store, told as Server-Sent Events. Any instance serves it,
 * whichever carries the call: the store's append notice wakes it (`onAppended`; of a local append,
 * only when it names this session's stream, so that many live views do not each re-read their
 * session for every append of every call) and a poll every second covers a notice that does not
 * reach it. Each message's `id` is the event's place in the
 * session's stream, so a client that reconnects with `Last-Event-ID` misses nothing and gets nothing
 * twice. The stream ends with `ended` once the session has ended (at once for one that ended before,
 * or without a message for a client back with the id of `ended`), and when the service drains.
 *
 * Events: `status` (queued, in progress, and what happens to the call: who answered it, a transfer
 * and its failure), `turn` (a transcript entry, as GET /v1/sessions/{id} shows it), `metrics` (an
 * agent turn's latency breakdown, as `metrics.turns[]`), `function_call` (a tool the agent called),
 * `ended` (the final status), and `partial_transcript` (the words heard so far of the caller's
 * utterance in progress, from a streaming recogniser: SessionPartials, session-partials.ts). A partial
 * is not stored and has no `id` (a reconnecting client's Last-Event-ID stays the last stored event's);
 * it is best effort, throttled where it is published, and never sent after its own utterance's user
 * turn (one whose `t` is not after the latest user turn's is dropped) nor before the first read.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type StoredEvent } from '../../event-store/event-store.port';
import { draining } from '../../kernel/http/draining';
import { sessionStream } from '../domain/session.decider';
import { type PartialTranscript, SessionPartials } from './session-partials';

/** One Server-Sent Event: its name, its data (JSON) and its id (the event's place in the stream). */
export interface StoredLiveMessage {
  event: 'status' | 'turn' | 'metrics' | 'function_call' | 'ended';
  data: Record<string, unknown>;
  id: number;
}

/** The words so far of the caller's utterance in progress: not stored, so no id. */
export interface PartialLiveMessage {
  event: 'partial_transcript';
  data: { role: 'user'; content: string; t: number };
  id?: undefined;
}

export type LiveMessage = StoredLiveMessage | PartialLiveMessage;

/** Where the messages go; `end` closes the response. */
export interface LiveSink {
  send(message: LiveMessage): void;
  /** A comment line that keeps proxies from closing an idle stream. */
  ping(): void;
  end(): void;
  /** Called once when the client goes away. */
  onClose(listener: () => void): void;
}

const POLL_MS = 1000;
const PING_MS = 15_000;

/** The live view's message of one stored event of a session, or null for those it does not tell. */
export function liveMessageOf(stored: StoredEvent): StoredLiveMessage | null {
  const data = stored.data;
  const id = stored.streamPosition;
  switch (stored.type) {
    case 'session.created':
      return { event: 'status', data: { status: 'queued' }, id };
    case 'session.started':
      return { event: 'status', data: { status: 'in_progress', started_at: data.started_at }, id };
    case 'session.amd_decided':
      return { event: 'status', data: { status: 'in_progress', amd: data }, id };
    case 'session.transfer_initiated':
      return {
        event: 'status',
        data: { status: 'in_progress', transfer: { transfer_number: data.transfer_number } },
        id,
      };
    case 'session.transfer_failed': {
      const { transfer_number, reason, sip_code } = data;
      return {
        event: 'status',
        data: { status: 'in_progress', transfer_failed: { transfer_number, reason, sip_code } },
        id,
      };
    }
    case 'session.transcript_appended':
      return { event: 'turn', data: data.entry as Record<string, unknown>, id };
    case 'session.turn_measured':
      return { event: 'metrics', data: data.turn as Record<string, unknown>, id };
    case 'session.function_invoked':
      return { event: 'function_call', data: data.invocation as Record<string, unknown>, id };
    case 'session.ended':
    case 'session.failed': {
      const { status, end_reason, ended_at, duration_seconds } = data;
      return { event: 'ended', data: { status, end_reason, ended_at, duration_seconds }, id };
    }
    default:
      return null;
  }
}

/** The `t` of a stored user turn (a transcript entry of the caller's); null for any other event. */
function userTurnT(stored: StoredEvent): number | null {
  if (stored.type !== 'session.transcript_appended') return null;
  const entry = stored.data.entry as { role?: unknown; t?: unknown } | undefined;
  return entry?.role === 'user' && typeof entry.t === 'number' ? entry.t : null;
}

@Injectable()
export class SessionLive implements OnApplicationShutdown {
  private readonly logger = new Logger('SessionLive');
  private readonly open = new Set<() => void>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly partials: SessionPartials,
  ) {}

  /**
   * Tells the session's events after stream position `after` (-1: all) to `sink`, then each new one
   * as it is stored, until the session ends, the client goes away or the service stops.
   */
  follow(sessionId: string, after: number, sink: LiveSink): void {
    const stream = sessionStream(sessionId);
    let last = after;
    let reading: Promise<void> | null = null;
    let again = false;
    let closed = false;
    // Partials wait for the first read (the turns already stored), and none of an utterance whose
    // user turn was read (its `t` is the utterance's start, as the turn's) is sent after it.
    let caughtUp = false;
    let lastUserTurnT = -Infinity;
    const close = (): void => {
      if (closed) return;
      closed = true;
      unsubscribe();
      offPartials();
      offDrain();
      clearInterval(poll);
      clearInterval(ping);
      this.open.delete(close);
      sink.end();
    };
    const read = (): void => {
      if (closed) return;
      if (reading) {
        again = true;
        return;
      }
      reading = (async () => {
        const events = await this.store.readStream(stream);
        // Its end already told (a client back with the id of `ended`): nothing more will come.
        const end = events.find((e) => e.type === 'session.ended' || e.type === 'session.failed');
        if (end && end.streamPosition <= last) return close();
        for (const stored of events) {
          const t = userTurnT(stored);
          if (t !== null && t > lastUserTurnT) lastUserTurnT = t;
          if (closed || stored.streamPosition <= last) continue;
          last = stored.streamPosition;
          const message = liveMessageOf(stored);
          if (!message) continue;
          sink.send(message);
          if (message.event === 'ended') return close();
        }
        caughtUp = true;
      })()
        .catch((err: unknown) => this.logger.warn(`live view of ${sessionId}: ${(err as Error).message}`))
        .finally(() => {
          reading = null;
          if (again) {
            again = false;
            read();
          }
        });
    };
    const partial = ({ content, t }: PartialTranscript): void => {
      if (closed || !caughtUp || t <= lastUserTurnT) return;
      sink.send({ event: 'partial_transcript', data: { role: 'user', content, t } });
    };
    // Only for an append to this stream, when the store tells which (other instances' appends: any).
    const unsubscribe = this.store.onAppended((_origin, streams) => {
      if (!streams || streams.includes(stream)) read();
    });
    const offPartials = this.partials.subscribe(sessionId, partial);
    // Draining: the HTTP server waits for open responses, so the live views end first (clients
    // reconnect, with Last-Event-ID, to an instance that takes requests).
    const offDrain = draining.onDrain(() => close());
    const poll = setInterval(read, POLL_MS);
    const ping = setInterval(() => sink.ping(), PING_MS);
    poll.unref();
    ping.unref();
    this.open.add(close);
    sink.onClose(close);
    read();
  }

  /** The service stops: every live view ends (a client reconnects elsewhere with Last-Event-ID). */
  onApplicationShutdown(): void {
    for (const close of [...this.open]) close();
  }
}
