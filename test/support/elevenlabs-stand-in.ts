import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { EmbeddedSynthesizer } from '../../src/conversations/engines/embedded/embedded-synthesizer';
import { resample } from '../../src/kernel/audio/rate-converter';

/**
 * A STAND-IN FOR ELEVENLABS' STREAM-INPUT API (the single-context text-to-speech WebSocket), on
 * loopback, for tests and benchmarks: it is not the real service and knows only what they need of it.
 *
 * What follows ElevenLabs' documented protocol: the upgrade at
 * `/v1/text-to-speech/{voice_id}/stream-input?model_id=…&output_format=pcm_<rate>` with the key in the
 * `xi-api-key` header (wrong or missing: HTTP 401 `{"detail":{"status":"invalid_api_key",…}}`, no
 * upgrade); the first message `{"text":" ", …}`; text messages buffered until `flush: true` (or
 * `try_trigger_generation`); `{"text":""}` speaks what is left, sends `{"isFinal":true}` and closes 1000;
 * audio messages `{"audio": base64 of 16-bit LE mono PCM, "isFinal": null, "normalizedAlignment",
 * "alignment": {chars, charStartTimesMs, charDurationsMs}}`; errors as `{"message","error","code"}`
 * then a close (1008 for a request it refuses, 1011 for its own failure); no message for the
 * inactivity timeout (`inactivity_timeout` in the query, else 20 s) closes 1008 with a reason.
 *
 * The stand-in's own choices: it speaks with the real embedded synthesiser (flite, 16 kHz) resampled
 * to the output_format's rate (`speak` replaces it), so the audio is real speech; it also speaks
 * without a flush once its buffer holds a sentence end and at least AUTO_SPEAK_CHARS characters (up to
 * the last sentence end; the real server decides by its chunk_length_schedule); audio goes out in
 * chunks of `chunkMs` (100 ms) as fast as the socket takes them, each with an alignment whose `chars`
 * are that text's characters spread over its chunks in proportion (the last takes the rest: their sum
 * is the text spoken, spaces included) and times relative to the chunk; only `pcm_<rate>` formats are
 * served (another is an error message and a close 1008); a first message other than `{"text":" "}` is
 * refused the same way. Fault injection: failNextUpgrade, dropAfterChunks, firstAudioDelayMs, errorNext.
 */

export interface ElevenLabsStandInOptions {
  apiKey?: string;
  /** Speech for `text` at `rate` Hz (default: flite at 16 kHz, resampled). */
  speak?: (text: string, rate: number) => Promise<Int16Array>;
  /** Delay before the first audio of each connection (ms, default 0). */
  firstAudioDelayMs?: number;
  /** Audio per message (ms, default 100). */
  chunkMs?: number;
  /** No message for this long closes the connection 1008 (ms; default the query's `inactivity_timeout`, else 20 s). */
  inactivityMs?: number;
}

/** One connection (or refused upgrade), as the stand-in saw it. */
export interface StandInConnection {
  voice: string;
  query: Record<string, string>;
  apiKeyOk: boolean;
  /** The messages received, parsed. */
  messages: unknown[];
  /** Audio messages sent. */
  audioChunks: number;
  finalSent: boolean;
  /** How it ended: `refused` (an HTTP status at the upgrade), `server` (a close it sent), `dropped` (destroyed abruptly by a fault), `client`. */
  closed: { by: 'refused' | 'server' | 'dropped' | 'client'; code: number; reason: string } | null;
}

/** A spoken text: when its speech was ready (performance.now()) and how long it is. */
export interface SpokenText {
  text: string;
  at: number;
  samples: number;
}

const PATH = /^\/v1\/text-to-speech\/([^/?]+)\/stream-input$/;
/** Without a flush, a buffer with a sentence end and at least this many characters is spoken. */
export const AUTO_SPEAK_CHARS = 50;

export class ElevenLabsStandIn {
  readonly connections: StandInConnection[] = [];
  readonly spoken: SpokenText[] = [];
  firstAudioDelayMs: number;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private synthesizer: EmbeddedSynthesizer | null = null;
  private upgradeFailures: number[] = [];
  private drops: number[] = [];
  private errors: string[] = [];
  readonly apiKey: string;

  private constructor(
    private readonly server: Server,
    private readonly owned: boolean,
    private readonly options: ElevenLabsStandInOptions,
  ) {
    this.apiKey = options.apiKey ?? 'xi-stand-in-key';
    this.firstAudioDelayMs = options.firstAudioDelayMs ?? 0;
  }

  /** Listens on 127.0.0.1 on a free port. */
  static async start(options: ElevenLabsStandInOptions = {}): Promise<ElevenLabsStandIn> {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: { status: 'not_found', message: 'The stand-in serves stream-input only.' } }));
    });
    const standIn = new ElevenLabsStandIn(server, true, options);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!standIn.upgrade(req, socket, head)) refuse(socket, 404, { detail: { message: 'Not found' } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  /**
   * Serves stream-input on an existing server (beside other stand-ins): upgrades of other paths are
   * left to the server's other `upgrade` listeners. close() then leaves the server open.
   */
  static attach(server: Server, options: ElevenLabsStandInOptions = {}): ElevenLabsStandIn {
    const standIn = new ElevenLabsStandIn(server, false, options);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      standIn.upgrade(req, socket, head);
    });
    return standIn;
  }

  /** The base URL (as the adapter takes it: http://, the WebSocket's is ws://). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next upgrade answers this HTTP status (with a JSON detail) instead of upgrading. */
  failNextUpgrade(status: number): void {
    this.upgradeFailures.push(status);
  }

  /** The next `times` connections are destroyed abruptly after sending `chunks` audio messages (0: before any). */
  dropAfterChunks(chunks: number, times = 1): void {
    for (let i = 0; i < times; i++) this.drops.push(chunks);
  }

  /** The next connection answers its first message with an error message, then closes 1011. */
  errorNext(message: string): void {
    this.errors.push(message);
  }

  /** Connections still open. */
  get openConnections(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.synthesizer?.close();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    if (this.owned) {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server.close(() => resolve()));
    }
  }

  /** Handles an upgrade of the stream-input path: false for another path. */
  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const match = PATH.exec(url.pathname);
    if (!match) return false;
    const key = req.headers['xi-api-key'];
    const record: StandInConnection = {
      voice: decodeURIComponent(match[1] ?? ''),
      query: Object.fromEntries(url.searchParams),
      apiKeyOk: key === this.apiKey,
      messages: [],
      audioChunks: 0,
      finalSent: false,
      closed: null,
    };
    this.connections.push(record);
    if (!record.apiKeyOk) {
      record.closed = { by: 'refused', code: 401, reason: 'invalid_api_key' };
      refuse(socket, 401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
      return true;
    }
    const status = this.upgradeFailures.shift();
    if (status !== undefined) {
      record.closed = { by: 'refused', code: status, reason: 'failNextUpgrade' };
      refuse(socket, status, {
        detail: { status: 'stand_in_failure', message: `The stand-in was told to fail (${status}).` },
      });
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.serve(ws, record));
    return true;
  }

  private serve(ws: WebSocket, record: StandInConnection): void {
    this.sockets.add(ws);
    const rate = /^pcm_(\d+)$/.exec(record.query.output_format ?? '');
    const dropAfter = this.drops.shift();
    const errorMessage = this.errors.shift();
    const inactivityMs = this.options.inactivityMs ?? (Number(record.query.inactivity_timeout) * 1000 || 20_000);
    let buffer = '';
    let first = true;
    let audioSent = false;
    let ended = false;
    let speaking: Promise<void> = Promise.resolve();
    const open = () => ws.readyState === WebSocket.OPEN;
    const closeWith = (code: number, reason: string) => {
      if (!open()) return;
      record.closed = { by: 'server', code, reason };
      ws.close(code, reason);
    };
    const refuseWith = (code: number, message: string, error: string) => {
      ws.send(JSON.stringify({ message, error, code }));
      closeWith(code, message.slice(0, 120));
    };
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => closeWith(1008, `Have not received new text for ${inactivityMs / 1000} seconds. Closing the connection.`),
        inactivityMs,
      );
    };
    touch();
    ws.on('close', (code: number, reason: Buffer) => {
      clearTimeout(idle);
      this.sockets.delete(ws);
      record.closed ??= { by: 'client', code, reason: reason.toString('utf8') };
    });
    ws.on('error', () => undefined);

    const say = (text: string): Promise<void> =>
      (speaking = speaking.then(async () => {
        if (!open() || text.trim() === '' || !rate) return;
        const samples = await this.speak(text, Number(rate[1]));
        this.spoken.push({ text, at: performance.now(), samples: samples.length });
        if (!audioSent && this.firstAudioDelayMs > 0) await sleep(this.firstAudioDelayMs);
        const per = Math.max(1, Math.round((Number(rate[1]) * (this.options.chunkMs ?? 100)) / 1000));
        const count = Math.max(1, Math.ceil(samples.length / per));
        let charAt = 0;
        for (let i = 0; i < count; i++) {
          if (!open()) return;
          if (dropAfter !== undefined && record.audioChunks >= dropAfter) {
            record.closed = { by: 'dropped', code: 1006, reason: `dropped after ${record.audioChunks} chunks` };
            ws.terminate();
            return;
          }
          const piece = samples.subarray(i * per, (i + 1) * per);
          const upTo = i === count - 1 ? text.length : Math.round((text.length * (i + 1) * per) / samples.length);
          const chars = [...text.slice(charAt, Math.max(charAt, upTo))];
          charAt = Math.max(charAt, upTo);
          const alignment = alignmentOf(chars, (piece.length * 1000) / Number(rate[1]));
          ws.send(
            JSON.stringify({
              audio: Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('base64'),
              isFinal: null,
              normalizedAlignment: alignment,
              alignment,
            }),
          );
          record.audioChunks += 1;
          audioSent = true;
          // Lets the client's messages (an abort's close) in between chunks.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }));

    ws.on('message', (data: RawData) => {
      touch();
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(text(data)) as Record<string, unknown>;
      } catch {
        return refuseWith(1008, 'Invalid message: not JSON.', 'invalid_request');
      }
      record.messages.push(message);
      if (errorMessage !== undefined) {
        ws.send(JSON.stringify({ message: errorMessage, error: 'internal_error', code: 1011 }));
        return closeWith(1011, 'internal error');
      }
      if (!rate) {
        return refuseWith(
          1008,
          `The stand-in serves pcm_<rate> only (got ${record.query.output_format}).`,
          'invalid_request',
        );
      }
      if (typeof message.text !== 'string')
        return refuseWith(1008, 'Invalid message: text is required.', 'invalid_request');
      if (first) {
        first = false;
        if (message.text !== ' ') return refuseWith(1008, 'The first message must be {"text":" "}.', 'invalid_request');
        return;
      }
      if (ended) return;
      if (message.text === '') {
        ended = true;
        const rest = buffer;
        buffer = '';
        void say(rest).then(() => {
          if (!open()) return;
          ws.send(JSON.stringify({ isFinal: true }));
          record.finalSent = true;
          closeWith(1000, '');
        });
        return;
      }
      buffer += message.text;
      if (message.flush === true || message.try_trigger_generation === true) {
        const now = buffer;
        buffer = '';
        void say(now);
        return;
      }
      const end = lastSentenceEnd(buffer);
      if (end > 0 && buffer.length >= AUTO_SPEAK_CHARS) {
        const now = buffer.slice(0, end);
        buffer = buffer.slice(end);
        void say(now);
      }
    });
  }

  private async speak(text: string, rate: number): Promise<Int16Array> {
    if (this.options.speak) return this.options.speak(text, rate);
    this.synthesizer ??= new EmbeddedSynthesizer();
    const speech = await this.synthesizer.synthesize(text, {});
    return resample(speech.samples, speech.sampleRate, rate);
  }
}

/** ElevenLabs' alignment of one chunk: its characters evenly over its duration, from the chunk's start. */
function alignmentOf(
  chars: string[],
  durationMs: number,
): { chars: string[]; charStartTimesMs: number[]; charDurationsMs: number[] } {
  const each = chars.length > 0 ? Math.floor(durationMs / chars.length) : 0;
  return {
    chars,
    charStartTimesMs: chars.map((_, i) => i * each),
    charDurationsMs: chars.map(() => each),
  };
}

/** Where the buffer's last sentence ends (after its . ! ? and the space after it), 0 when none. */
function lastSentenceEnd(buffer: string): number {
  let end = 0;
  for (const match of buffer.matchAll(/[.!?…]["'”’)\]]*\s+/gu)) end = match.index + match[0].length;
  return end;
}

function refuse(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Error'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
