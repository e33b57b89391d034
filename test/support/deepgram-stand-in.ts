import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EmbeddedRecognizer } from '../../src/conversations/engines/embedded/embedded-recognizer';

/**
 * A STAND-IN FOR DEEPGRAM'S LIVE SPEECH RECOGNITION API (`wss://api.deepgram.com/v1/listen`), on
 * loopback, for tests and benchmarks: it is not the service, and implements only what the adapter
 * (src/conversations/engines/deepgram) needs of the documented protocol.
 *
 * - Upgrade of `GET /v1/listen?…` with `Authorization: Token <apiKey>`: a wrong or missing key is an
 *   HTTP 401 with Deepgram's JSON body, no upgrade; `encoding` other than linear16 or `sample_rate`
 *   other than 16000 is a 400. The query is recorded per connection (`connections`).
 * - Binary frames are 16 kHz Int16 LE mono. An energy VAD over 20 ms blocks: while speech goes on, an
 *   interim `Results` every `interimEveryMs` of audio with `interimText(audio so far)` (none when it
 *   is ''); `SpeechStarted` when `vad_events=true`; once silence has lasted the connection's
 *   `endpointing` ms (its query; when absent `defaultEndpointingMs`, 200 by default: the stand-in's
 *   choice, Deepgram's own is 10 ms), after `finalLatencyMs` + `finalDelayMs` a final `Results`
 *   (`is_final`, `speech_final`) whose transcript is `transcribe(the utterance's audio)` — by
 *   default for real, with the embedded recogniser (pocketsphinx) — then `UtteranceEnd` after
 *   `utterance_end_ms` if it was asked for.
 * - Text frames: `Finalize` answers a final `Results` (`from_finalize: true`) for the audio not yet
 *   finalised at once (after the delays), `CloseStream` finalises, sends `Metadata` and closes 1000,
 *   `KeepAlive` is accepted. No frame for `idleTimeoutMs` (10 s, as Deepgram): close 1011, NET-0001.
 *
 * Faults for tests: `failNextUpgrade(status)`, `dropAfterBytes(n, times)` (the next connections are
 * destroyed, no close frame, once they received n bytes of audio), `finalDelayMs` (a slow provider).
 */

export interface DeepgramStandInOptions {
  apiKey?: string;
  /** Silence that ends an utterance when the query has no `endpointing` (default 200 ms). */
  defaultEndpointingMs?: number;
  /** Audio between two interim results while speech goes on (default 300 ms). */
  interimEveryMs?: number;
  /** The interim transcript of the utterance's audio so far ('' sends none; the default). */
  interimText?: (audioSoFar: Int16Array) => string;
  /** The final transcript of an utterance (default: pocketsphinx, for real). */
  transcribe?: (audio16k: Int16Array) => Promise<string>;
  /** Added before every final result (default 0). */
  finalLatencyMs?: number;
  /** No frame for this long closes the connection 1011 (default 10 s, as Deepgram). */
  idleTimeoutMs?: number;
}

export interface StandInConnection {
  query: Record<string, string>;
  authorization: string | undefined;
  /** Audio bytes received. */
  bytes: number;
  /** Text messages' `type`s received, in order. */
  controls: string[];
  /** How it ended: null while open. */
  closed: null | {
    by: 'client' | 'close-stream' | 'idle' | 'dropped' | 'stand-in';
    code: number;
    reason: string;
  };
}

const RATE = 16_000;
const BLOCK = 320; // 20 ms
/**
 * A block is voiced when a sample in it reaches this level (about -36 dBFS): speech's quiet tail
 * counts as speech until its last such sample, as the benchmark's caller counts its own speech's end,
 * so the endpoint falls `endpointing` ms after that (flite's silence is 0).
 */
const VOICED_PEAK = 500;

export class DeepgramStandIn {
  readonly connections: StandInConnection[] = [];
  /** Added to every final result's latency (a slow provider); settable. */
  finalDelayMs = 0;
  private readonly sockets = new Set<WebSocket>();
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private upgradeFailures: number[] = [];
  private drops: { bytes: number; times: number } = { bytes: 0, times: 0 };
  private recognizer: EmbeddedRecognizer | null = null;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void =>
    this.upgrade(req, socket, head);

  private constructor(
    private readonly server: Server,
    private readonly owned: boolean,
    readonly options: Required<Omit<DeepgramStandInOptions, 'transcribe'>> & Pick<DeepgramStandInOptions, 'transcribe'>,
  ) {
    server.on('upgrade', this.onUpgrade);
  }

  /** Listens on 127.0.0.1, a free port. */
  static async start(options: DeepgramStandInOptions = {}): Promise<DeepgramStandIn> {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"err_code":"NOT_FOUND","err_msg":"The stand-in serves the live WebSocket only."}');
    });
    const standIn = new DeepgramStandIn(server, true, withDefaults(options));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  /** Serves `/v1/listen` upgrades on an existing server (beside other stand-ins); close() leaves the server. */
  static attach(server: Server, options: DeepgramStandInOptions = {}): DeepgramStandIn {
    return new DeepgramStandIn(server, false, withDefaults(options));
  }

  get apiKey(): string {
    return this.options.apiKey;
  }

  /** The base URL (http://127.0.0.1:port), as the adapter's endpoint takes it. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next `times` upgrades are answered `status` (no upgrade). */
  failNextUpgrade(status: number, times = 1): void {
    for (let i = 0; i < times; i++) this.upgradeFailures.push(status);
  }

  /** The next `times` connections are destroyed abruptly (no close frame) once they received `bytes` of audio. */
  dropAfterBytes(bytes: number, times = 1): void {
    this.drops = { bytes, times };
  }

  async close(): Promise<void> {
    this.server.off('upgrade', this.onUpgrade);
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    this.recognizer?.close();
    if (this.owned) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname !== '/v1/listen') {
      if (this.owned) refuse(socket, 404, 'NOT_FOUND', `Unknown path ${url.pathname}.`);
      return; // another stand-in's
    }
    const query = Object.fromEntries(url.searchParams);
    const authorization = req.headers.authorization;
    const failure = this.upgradeFailures.shift();
    if (failure !== undefined) return refuse(socket, failure, 'STAND_IN_FAILURE', `Told to fail (${failure}).`);
    if (authorization !== `Token ${this.options.apiKey}`) {
      return refuse(socket, 401, 'INVALID_AUTH', 'Invalid credentials.');
    }
    if (query.encoding !== 'linear16' || query.sample_rate !== '16000') {
      return refuse(socket, 400, 'Bad Request', 'The stand-in takes encoding=linear16 and sample_rate=16000 only.');
    }
    const record: StandInConnection = { query, authorization, bytes: 0, controls: [], closed: null };
    this.connections.push(record);
    let dropAt = Infinity;
    if (this.drops.times > 0) {
      this.drops.times--;
      dropAt = this.drops.bytes;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      new Session(this, ws, record, dropAt);
    });
  }

  /** Loads the embedded recogniser's model now (a warm provider), so the first utterance does not wait for it. */
  async warmUp(): Promise<void> {
    if (!this.options.transcribe) await this.transcribe(new Int16Array(RATE / 2));
  }

  /** @internal */
  transcribe(audio: Int16Array): Promise<string> {
    if (this.options.transcribe) return this.options.transcribe(audio);
    this.recognizer ??= new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
    const stream = this.recognizer.start('en-US');
    for (let i = 0; i < audio.length; i += BLOCK) stream.write(audio.subarray(i, i + BLOCK));
    stream.write(new Int16Array(4800)); // trailing silence lets pocketsphinx close the last word
    return stream.finish();
  }
}

function withDefaults(options: DeepgramStandInOptions): DeepgramStandIn['options'] {
  return {
    apiKey: options.apiKey ?? 'dg-stand-in-key',
    defaultEndpointingMs: options.defaultEndpointingMs ?? 200,
    interimEveryMs: options.interimEveryMs ?? 300,
    interimText: options.interimText ?? (() => ''),
    transcribe: options.transcribe,
    finalLatencyMs: options.finalLatencyMs ?? 0,
    idleTimeoutMs: options.idleTimeoutMs ?? 10_000,
  };
}

/** An HTTP answer instead of the upgrade, with Deepgram's error body. */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ err_code: code, err_msg: message, request_id: randomUUID() });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Refused'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** One live connection: its audio, VAD, and results. */
class Session {
  private readonly requestId = randomUUID();
  private samples = new Int16Array(RATE * 10);
  private length = 0;
  /** Where the audio not yet finalised begins. */
  private utteranceStart = 0;
  private heardSpeech = false;
  private silentMs = 0;
  private sinceInterimMs = 0;
  private odd: number | null = null;
  private scanned = 0;
  private finals: Promise<void> = Promise.resolve();
  private utteranceEnd: NodeJS.Timeout | null = null;
  private readonly idle: NodeJS.Timeout;
  private readonly endpointingMs: number | null;
  private readonly utteranceEndMs: number | null;

  constructor(
    private readonly standIn: DeepgramStandIn,
    private readonly ws: WebSocket,
    private readonly record: StandInConnection,
    private readonly dropAt: number,
  ) {
    const { query } = record;
    this.endpointingMs =
      query.endpointing === 'false'
        ? null
        : query.endpointing !== undefined
          ? Number(query.endpointing)
          : standIn.options.defaultEndpointingMs;
    this.utteranceEndMs = query.utterance_end_ms !== undefined ? Number(query.utterance_end_ms) : null;
    this.idle = setTimeout(
      () => this.closeBy('idle', 1011, 'NET-0001: no audio or text message within the timeout window'),
      standIn.options.idleTimeoutMs,
    );
    ws.on('message', (data: Buffer, isBinary) => {
      if (record.closed) return; // frames `ws` still parses after a drop
      this.idle.refresh();
      if (isBinary) this.audio(data);
      else this.control(data.toString('utf8'));
    });
    ws.on('close', (code, reason) => {
      clearTimeout(this.idle);
      if (this.utteranceEnd) clearTimeout(this.utteranceEnd);
      record.closed ??= { by: 'client', code, reason: reason.toString('utf8') };
    });
  }

  private audio(data: Buffer): void {
    this.record.bytes += data.length;
    if (this.record.bytes >= this.dropAt) {
      this.record.closed = { by: 'dropped', code: 1006, reason: '' };
      this.ws.terminate(); // the socket destroyed: no close frame
      return;
    }
    let at = 0;
    if (this.odd !== null && data.length > 0) {
      this.push(this.odd | (data[0]! << 8));
      this.odd = null;
      at = 1;
    }
    for (; at + 1 < data.length; at += 2) this.push(data.readInt16LE(at));
    if (at < data.length) this.odd = data[at]!;
    this.scan();
  }

  private push(sample: number): void {
    if (this.length === this.samples.length) {
      const grown = new Int16Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.length++] = (sample << 16) >> 16;
  }

  /** The VAD, block by block over the audio not yet scanned. */
  private scan(): void {
    const { interimEveryMs } = this.standIn.options;
    for (; this.scanned + BLOCK <= this.length; this.scanned += BLOCK) {
      let peak = 0;
      for (let i = this.scanned; i < this.scanned + BLOCK; i++) peak = Math.max(peak, Math.abs(this.samples[i]!));
      const voiced = peak >= VOICED_PEAK;
      if (voiced) {
        if (!this.heardSpeech) {
          this.heardSpeech = true;
          this.sinceInterimMs = 0;
          if (this.record.query.vad_events === 'true') {
            this.send({ type: 'SpeechStarted', channel: [0], timestamp: this.scanned / RATE });
          }
        }
        this.silentMs = 0;
      } else if (this.heardSpeech) {
        this.silentMs += 20;
      }
      if (!this.heardSpeech) continue;
      this.sinceInterimMs += 20;
      if (this.sinceInterimMs >= interimEveryMs && this.record.query.interim_results === 'true') {
        this.sinceInterimMs = 0;
        const text = this.standIn.options.interimText(this.samples.slice(this.utteranceStart, this.scanned + BLOCK));
        if (text) this.results(text, this.scanned + BLOCK, { is_final: false, speech_final: false });
      }
      if (this.endpointingMs !== null && this.silentMs >= this.endpointingMs) {
        void this.finalise(this.scanned + BLOCK, { speech_final: true });
      }
    }
  }

  /** A final result for the audio up to `end`, after the latency, in order with the others. */
  private finalise(end: number, how: { speech_final?: boolean; from_finalize?: boolean }): Promise<void> {
    const start = this.utteranceStart;
    const audio = this.samples.slice(start, end);
    const speech = this.heardSpeech;
    this.utteranceStart = end;
    this.heardSpeech = false;
    this.silentMs = 0;
    if (this.utteranceEnd) clearTimeout(this.utteranceEnd);
    const { finalLatencyMs } = this.standIn.options;
    const delay = finalLatencyMs + this.standIn.finalDelayMs;
    const transcript = speech ? this.standIn.transcribe(audio).catch(() => '') : Promise.resolve('');
    this.finals = this.finals.then(async () => {
      const text = await transcript;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      this.results(text, end, { is_final: true, speech_final: how.speech_final ?? false, ...how }, start);
      if (how.speech_final && this.utteranceEndMs !== null) {
        this.utteranceEnd = setTimeout(
          () => this.send({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: end / RATE }),
          this.utteranceEndMs,
        );
      }
    });
    return this.finals;
  }

  private control(text: string): void {
    let type = 'unparsable';
    try {
      type = String((JSON.parse(text) as { type?: unknown }).type);
    } catch {
      // recorded as such
    }
    this.record.controls.push(type);
    if (type === 'Finalize') {
      void this.finalise(this.scanned, { from_finalize: true });
    } else if (type === 'CloseStream') {
      const pending = this.heardSpeech ? this.finalise(this.scanned, {}) : this.finals;
      void pending.then(() => {
        this.send({
          type: 'Metadata',
          transaction_key: 'deprecated',
          request_id: this.requestId,
          sha256: '',
          created: new Date().toISOString(),
          duration: this.length / RATE,
          channels: 1,
          models: ['stand-in'],
          model_info: {
            'stand-in': { name: this.record.query.model ?? 'stand-in', version: 'stand-in', arch: 'stand-in' },
          },
        });
        this.closeBy('close-stream', 1000, '');
      });
    }
  }

  private results(
    transcript: string,
    end: number,
    flags: { is_final: boolean; speech_final: boolean; from_finalize?: boolean },
    start = this.utteranceStart,
  ): void {
    this.send({
      type: 'Results',
      channel_index: [0, 1],
      duration: (end - start) / RATE,
      start: start / RATE,
      ...flags,
      channel: { alternatives: [{ transcript, confidence: transcript ? 0.9 : 0, words: [] }] },
      metadata: {
        request_id: this.requestId,
        model_info: { name: this.record.query.model ?? 'stand-in', version: 'stand-in', arch: 'stand-in' },
        model_uuid: '00000000-0000-0000-0000-000000000000',
      },
    });
  }

  private send(message: Record<string, unknown>): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  private closeBy(by: 'idle' | 'close-stream', code: number, reason: string): void {
    this.record.closed ??= { by, code, reason };
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(code, reason.slice(0, 120));
  }
}
