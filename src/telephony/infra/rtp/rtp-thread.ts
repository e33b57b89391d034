/**
 * The media thread as the main thread sees it: one worker thread (rtp-thread.worker.ts) that holds
 * every call's RTP sockets and paces them on its own event loop, so that nothing the main thread does
 * (recognition, the dialogue, the database, HTTP) can make a frame late (docs/telephony.md, "The
 * media thread"). Started with the first call; it does not keep the process alive by itself. Each
 * stream's messages go to its session (rtp-media-session.ts); a thread that dies fails every call it
 * carried and the next call starts a new one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROJECT_ROOT } from '../../../infra/project-root';
import { mediaClockLateness } from '../../../kernel/media/lateness-window';
import type { FromThread, TickReport, ToThread } from './rtp-thread-protocol';

/** What a session hears from the thread. */
export interface StreamPeer {
  /** One tick of this stream; `lateMs` how late it left its place on the clock (a stall counted whole, once). */
  ticked(report: TickReport, lateMs: number): void;
  failed(error: Error): void;
}

const FRAME_MS = 20;

/** The port pair asked for is held by another socket: the caller tries another. */
export class PortTaken extends Error {}

export class RtpThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly peers = new Map<number, StreamPeer>();
  private readonly opening = new Map<number, (error: { message: string; taken: boolean } | null) => void>();

  constructor(private readonly script: string = defaultScript()) {}

  /** Binds a port pair in the thread; resolves with the stream's id, or rejects (PortTaken: the pair is taken). */
  async open(host: string, port: number, sources: string | null, peer: StreamPeer): Promise<number> {
    const id = this.nextId++;
    const worker = this.started();
    const error = await new Promise<{ message: string; taken: boolean } | null>((resolve) => {
      this.opening.set(id, resolve);
      worker.postMessage({ op: 'open', id, host, port, sources } satisfies ToThread);
    });
    if (error !== null) throw error.taken ? new PortTaken(error.message) : new Error(error.message);
    this.peers.set(id, peer);
    return id;
  }

  send(message: ToThread): void {
    if (message.op === 'close') this.peers.delete(message.id);
    this.worker?.postMessage(message);
  }

  /** Calls carried now. */
  get streams(): number {
    return this.peers.size;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (message: FromThread) => this.receive(message));
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const resolve of this.opening.values()) resolve({ message: error.message, taken: false });
      this.opening.clear();
      const peers = [...this.peers.values()];
      this.peers.clear();
      for (const peer of peers) peer.failed(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the media thread exited (code ${code})`)));
    worker.unref(); // after the listeners: adding one refs the thread again
    this.worker = worker;
    return worker;
  }

  private receive(message: FromThread): void {
    switch (message.op) {
      case 'opened': {
        const resolve = this.opening.get(message.id);
        this.opening.delete(message.id);
        if (resolve) resolve(message.error);
        else if (message.error === null) this.worker?.postMessage({ op: 'close', id: message.id } satisfies ToThread);
        break;
      }
      case 'tick': {
        // After a stall the first frame is reported as late as the first one skipped: the stall whole, once.
        const lateMs = message.lateMs + message.skipped * FRAME_MS;
        for (const report of message.streams) {
          // The process's headroom (conversations' capacity) reads how late the media ran, per call.
          for (let i = message.skipped; i >= 0; i--) mediaClockLateness.record(message.lateMs + i * FRAME_MS);
          const peer = this.peers.get(report.id);
          try {
            peer?.ticked(report, lateMs);
          } catch (error) {
            // A listener's or the source's bug fails its own call, never the others or the process.
            this.peers.delete(report.id);
            this.worker?.postMessage({ op: 'close', id: report.id } satisfies ToThread);
            peer?.failed(error instanceof Error ? error : new Error(String(error)));
          }
        }
        break;
      }
      case 'failed': {
        const peer = this.peers.get(message.id);
        this.peers.delete(message.id);
        peer?.failed(new Error(message.message));
        break;
      }
    }
  }
}

/** The compiled worker beside this module (dist/), or dist's when this runs from the sources (tests). */
function defaultScript(): string {
  const beside = join(__dirname, 'rtp-thread.worker.js');
  return existsSync(beside) ? beside : join(PROJECT_ROOT, 'dist', 'telephony', 'infra', 'rtp', 'rtp-thread.worker.js');
}
