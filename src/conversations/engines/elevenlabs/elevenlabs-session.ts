import { WebSocket, type RawData } from 'ws';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { EngineError, type SpeechChunk, type SynthesisSession } from '../engines';

/** Bounds on one streaming-input session (the int-spec shortens them). */
export interface ElevenLabsLimits {
  /** From the first push (the handshake included) to the first audio of a connection. */
  firstAudioMs: number;
  /** Once end() was called: the longest silence of the server before it has said everything. */
  stallMs: number;
}

export const ELEVENLABS_LIMITS: ElevenLabsLimits = { firstAudioMs: 5_000, stallMs: 10_000 };

/** What one session needs of its synthesiser: where to connect, and how to name the engine in messages. */
export interface SessionTarget {
  /** The whole `wss://…/stream-input?…` URL. */
  url: string;
  apiKey: string | null;
  /** The engine's host, for messages (never the key). */
  host: string;
  /** The rate of the PCM asked for (`output_format`). */
  sampleRate: number;
  limits: ElevenLabsLimits;
}

/** The server's answers, as far as this adapter reads them. */
interface ServerMessage {
  audio?: string | null;
  isFinal?: boolean | null;
  alignment?: { chars?: unknown } | null;
  message?: unknown;
  error?: unknown;
}

type Item = { chunk: SpeechChunk } | { error: EngineError } | { done: true };

/** One connection's life: events of an earlier (replaced) connection are ignored. */
interface Attempt {
  socket: WebSocket;
  /** Audio came on it: a drop after this is not retried (the audio may have been played). */
  audio: boolean;
  opened: boolean;
  /** Why it failed, when a socket error came before its close. */
  cause: string | null;
}

/**
 * One answer's speech over ElevenLabs' stream-input WebSocket (elevenlabs-synthesizer.ts). It connects
 * at once; pushes are sent in order once the socket is open (each followed by one space and `flush`);
 * end() sends `{"text":""}`; the audio comes out as the server sends it. A connection that fails
 * before any audio came is made again once, with everything pushed so far; after audio, a failure is
 * an EngineError (what was played is not said again).
 */
export class ElevenLabsSession implements SynthesisSession {
  /** The messages after the first (`{"text":" "}`), in order: resent whole on a retry. */
  private readonly outbox: string[] = [];
  private readonly items: Item[] = [];
  private waiter: (() => void) | null = null;
  private attempt: Attempt | null = null;
  private retried = false;
  private pushed = false;
  private ended = false;
  private finished = false;
  private characters = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly onAbort = () => this.finish(null, true);

  constructor(
    private readonly target: SessionTarget,
    private readonly signal?: AbortSignal,
  ) {
    if (signal?.aborted) {
      this.finished = true;
      this.items.push({ done: true });
      return;
    }
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.connect();
  }

  push(text: string): void {
    // An empty text would end the stream: nothing to say is not sent.
    if (this.finished || this.ended || text.trim() === '') return;
    this.send(JSON.stringify({ text: /\s$/.test(text) ? text : `${text} `, flush: true }));
    if (!this.pushed) {
      this.pushed = true;
      this.watch('first');
    }
  }

  end(): void {
    if (this.finished || this.ended) return;
    this.ended = true;
    if (!this.pushed) return this.finish(null);
    this.send(JSON.stringify({ text: '' }));
    if (this.attempt?.audio) this.watch('stall');
  }

  readonly audio: AsyncIterable<SpeechChunk> = {
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<SpeechChunk>> => {
        for (;;) {
          const item = this.items.shift();
          if (item && 'chunk' in item) return { value: item.chunk, done: false };
          if (item && 'error' in item) {
            this.items.push({ done: true });
            throw item.error;
          }
          if (item) {
            this.items.push(item);
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (this.waiter = resolve));
        }
      },
      // The reader stopped early (it broke out of its loop): the connection is closed.
      return: (): Promise<IteratorResult<SpeechChunk>> => {
        this.finish(null, true);
        return Promise.resolve({ value: undefined, done: true });
      },
    }),
  };

  private connect(): void {
    const headers: Record<string, string> = this.target.apiKey ? { 'xi-api-key': this.target.apiKey } : {};
    const socket = new WebSocket(this.target.url, { headers, handshakeTimeout: this.target.limits.firstAudioMs });
    const attempt: Attempt = { socket, audio: false, opened: false, cause: null };
    this.attempt = attempt;
    const current = () => this.attempt === attempt && !this.finished;
    socket.on('open', () => {
      if (!current()) return;
      attempt.opened = true;
      socket.send(JSON.stringify({ text: ' ' }));
      for (const message of this.outbox) socket.send(message);
    });
    socket.on('message', (data: RawData) => {
      if (current()) this.receive(attempt, data);
    });
    socket.on('unexpected-response', (req: ClientRequest, res: IncomingMessage) => {
      readDetail(res, (detail) => {
        if (current()) this.refusedUpgrade(res.statusCode ?? 0, detail);
        else req.destroy();
      });
    });
    socket.on('error', (err: Error) => {
      attempt.cause = (err as NodeJS.ErrnoException).code ?? err.message;
    });
    socket.on('close', (code: number, reason: Buffer) => {
      if (current()) this.closed(attempt, code, reason.toString('utf8'));
    });
  }

  private send(message: string): void {
    this.outbox.push(message);
    const socket = this.attempt?.socket;
    if (this.attempt?.opened && socket?.readyState === WebSocket.OPEN) socket.send(message);
  }

  private receive(attempt: Attempt, data: RawData): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(rawText(data)) as ServerMessage;
    } catch {
      return this.fail(`${this.what()} sent a message that is not JSON.`);
    }
    if (typeof message.audio === 'string' && message.audio !== '') {
      const samples = pcm16(Buffer.from(message.audio, 'base64'));
      const chars = message.alignment?.chars;
      const chunk: SpeechChunk = { sampleRate: this.target.sampleRate, samples };
      if (Array.isArray(chars)) {
        this.characters += chars.length;
        chunk.characters = this.characters;
      }
      attempt.audio = true;
      this.emit({ chunk });
    }
    if (message.isFinal === true) return this.finish(null);
    if (attempt.audio) this.watch(this.ended ? 'stall' : null);
    if (message.error !== undefined || message.message !== undefined) {
      const detail = [message.message, message.error].find((v) => typeof v === 'string' && v !== '') as
        string | undefined;
      const text = (detail ?? JSON.stringify(message)).slice(0, 300);
      if (/api[_ ]?key|unauthori[sz]ed|authenticat/i.test(`${String(message.error)} ${String(message.message)}`)) {
        return this.fail(`${this.what()} refused the key (${text}).`, 401);
      }
      return this.fail(`${this.what()} answered an error: ${text}`);
    }
  }

  private refusedUpgrade(status: number, detail: string): void {
    const text = detail ? `HTTP ${status}: ${detail}` : `HTTP ${status}`;
    if (status === 401 || status === 403) return this.fail(`${this.what()} refused the key (${text}).`, status);
    if ((status === 408 || status === 429 || status >= 500) && this.retry()) return;
    this.fail(`${this.what()} answered ${status}${detail ? `: ${detail}` : '.'}`, status);
  }

  private closed(attempt: Attempt, code: number, reason: string): void {
    if (code === 1000 && this.ended) return this.finish(null);
    if (code === 1008 && /api[_ ]?key|unauthori[sz]ed|authenticat/i.test(reason)) {
      return this.fail(`${this.what()} refused the key (close 1008: ${reason.slice(0, 300)}).`, 401);
    }
    if (!attempt.audio && this.retry()) return;
    if (!attempt.opened) {
      return this.fail(`${this.what()} could not be reached: ${attempt.cause ?? `close ${code}`}`);
    }
    const why = reason ? `${code}: ${reason.slice(0, 300)}` : `${code}${attempt.cause ? `, ${attempt.cause}` : ''}`;
    this.fail(`${this.what()} closed the stream before it ended (close ${why}).`);
  }

  /** Connects again, once per session, when no audio came yet: true when it did. */
  private retry(): boolean {
    if (this.retried || this.finished) return false;
    this.retried = true;
    this.attempt?.socket.terminate();
    this.connect();
    if (this.pushed) this.watch('first');
    return true;
  }

  /** The bound now running: the first audio's, the end's, or none. */
  private watch(kind: 'first' | 'stall' | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!kind || this.finished) return;
    const ms = kind === 'first' ? this.target.limits.firstAudioMs : this.target.limits.stallMs;
    this.timer = setTimeout(() => {
      if (kind === 'first') this.fail(`${this.what()} did not answer in time (${ms} ms).`);
      else this.fail(`${this.what()} did not finish in time (nothing for ${ms} ms after the end of the text).`);
    }, ms);
    this.timer.unref();
  }

  private fail(message: string, status: number | null = null): void {
    this.finish(new EngineError('synthesis', message, status));
  }

  /** Ends the session once: with an error for the reader, quietly (done, or aborted: `now`). */
  private finish(error: EngineError | null, now = false): void {
    if (this.finished) return;
    this.finished = true;
    this.watch(null);
    this.signal?.removeEventListener('abort', this.onAbort);
    const socket = this.attempt?.socket;
    if (socket) {
      // Aborted or failed: the connection is dropped at once; done: closed politely, if still open.
      if (now || error || socket.readyState !== WebSocket.OPEN) socket.terminate();
      else socket.close(1000);
    }
    if (now) this.items.length = 0;
    this.emit(error ? { error } : { done: true });
  }

  private emit(item: Item): void {
    this.items.push(item);
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  private what(): string {
    return `The speech synthesis engine at ${this.target.host}`;
  }
}

/** 16-bit little-endian samples (an odd last byte, which the API does not send, is dropped). */
function pcm16(bytes: Buffer): Int16Array {
  const samples = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** The refused upgrade's own message (`detail.message`, `message` or `error`), read up to 4 KiB. */
function readDetail(res: IncomingMessage, done: (detail: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    done(detailOf(Buffer.concat(chunks).toString('utf8')));
  };
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= 4096) chunks.push(chunk);
    else res.destroy();
  });
  res.on('end', finish);
  res.on('close', finish);
  res.on('error', finish);
}

function detailOf(body: string): string {
  try {
    const json = JSON.parse(body) as { detail?: unknown; message?: unknown; error?: unknown };
    const detail = json.detail;
    if (detail && typeof detail === 'object' && 'message' in detail && typeof detail.message === 'string') {
      return detail.message.slice(0, 300);
    }
    for (const value of [detail, json.message, json.error]) {
      if (typeof value === 'string' && value) return value.slice(0, 300);
    }
  } catch {
    // not JSON: its text
  }
  return body.trim().slice(0, 300);
}
