/**
 * The media thread's entry point (node:worker_threads), started by RtpThread (rtp-thread.ts): every
 * SIP call's RTP (rtp-stream.ts) and one 20 ms media clock (src/kernel/media/media-clock.ts) that
 * ticks them all, on an event loop of its own. The main thread's work (recognition, the dialogue,
 * the database, HTTP) cannot delay a frame: the agent's audio is queued here ahead of time, and each
 * tick's results go back in one message for all streams (rtp-thread-protocol.ts).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { MediaClock, type MediaTick } from '../../../kernel/media/media-clock';
import { AllowedSources } from '../sip/allowed-sources';
import { RtpStream } from './rtp-stream';
import type { FromThread, TickReport, ToThread } from './rtp-thread-protocol';

const MAX_CATCH_UP_FRAMES = 5;
/**
 * The thread's niceness where the system allows it (Linux, root or CAP_SYS_NICE): above the main
 * thread (0) and the speech helpers (niced), so that a busy machine still gives the clock its turn.
 */
const MEDIA_THREAD_NICENESS = -10;

/**
 * Raises this thread's priority: Linux keeps a niceness per thread, named by its id
 * (/proc/thread-self). Not allowed (an unprivileged user) or not Linux: it stays as it is.
 */
function raisePriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, MEDIA_THREAD_NICENESS);
  } catch {
    // Not allowed, or no /proc: the thread keeps the process's priority.
  }
}

const port = parentPort;
if (!port) throw new Error('rtp-thread.worker.ts runs as a worker thread');
const post = (message: FromThread): void => port.postMessage(message);

raisePriority();

const streams = new Map<number, RtpStream>();
let clock: MediaClock | null = null;
let ticks = 0;
/** One matcher per distinct list: calls opened under the same RTP_ALLOWED_SOURCES share it. */
let matcher: { sources: string | null; allows: (address: string) => boolean } | null = null;

function allowsFor(sources: string | null): (address: string) => boolean {
  if (matcher?.sources !== sources) {
    const allows =
      sources === null
        ? () => true
        : sources === ''
          ? () => false
          : (
              (list: AllowedSources) => (address: string) =>
                list.allows(address)
            )(AllowedSources.parse(sources));
    matcher = { sources, allows };
  }
  return matcher.allows;
}

function fail(id: number, error: unknown): void {
  streams.get(id)?.close();
  if (streams.delete(id)) post({ op: 'failed', id, message: error instanceof Error ? error.message : String(error) });
}

function tick(t: MediaTick): void {
  const reports: TickReport[] = [];
  // Places skipped by a stall of this thread count: a recording's timeline keeps real time.
  ticks += t.skipped;
  const index = ticks++;
  for (const [id, stream] of streams) {
    if (!stream.started) continue;
    try {
      reports.push({ id, ...stream.tick(index, t.now), stats: { ...stream.stats } });
    } catch (error) {
      fail(id, error);
    }
  }
  if (reports.length > 0) post({ op: 'tick', lateMs: t.lateMs, skipped: t.skipped, streams: reports });
  if (streams.size === 0) {
    clock?.stop();
    clock = null;
  }
}

function ensureClock(): void {
  if (clock) return;
  // A tick does not throw (each stream's errors are its own); should it, every call fails rather than freezes.
  clock = new MediaClock({
    maxCatchUp: MAX_CATCH_UP_FRAMES,
    onError: (error) => {
      clock = null;
      for (const id of [...streams.keys()]) fail(id, error);
    },
  });
  clock.start(tick);
}

async function open(message: Extract<ToThread, { op: 'open' }>): Promise<void> {
  try {
    const stream = await RtpStream.bind(message.host, message.port, allowsFor(message.sources), (error) =>
      fail(message.id, error),
    );
    streams.set(message.id, stream);
    post({ op: 'opened', id: message.id, error: null });
  } catch (error) {
    const taken = (error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
    post({
      op: 'opened',
      id: message.id,
      error: { message: error instanceof Error ? error.message : String(error), taken },
    });
  }
}

port.on('message', (message: ToThread) => {
  if (message.op === 'open') {
    void open(message);
    return;
  }
  const stream = streams.get(message.id);
  if (!stream) return;
  try {
    handle(stream, message);
  } catch (error) {
    fail(message.id, error); // one call's bad message fails that call, never the thread
  }
});

function handle(stream: RtpStream, message: Exclude<ToThread, { op: 'open' }>): void {
  switch (message.op) {
    case 'start':
      stream.start(message.media, message.silenceLimitMs);
      ensureClock();
      break;
    case 'queue':
      stream.queue(message.frames);
      break;
    case 'flush':
      stream.flush(message.upTo);
      break;
    case 'dtmf':
      stream.sendDtmf(message.digits);
      break;
    case 'listen':
      stream.listen(message.on);
      break;
    case 'close':
      stream.close();
      streams.delete(message.id);
      break;
  }
}
