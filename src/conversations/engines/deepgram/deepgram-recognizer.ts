import { DeepgramClient } from '@deepgram/sdk';
import {
  EngineError,
  type EngineEndpoint,
  type RecognitionListener,
  type RecognitionOptions,
  type RecognitionStream,
  type SpeechRecognizer,
} from '../engines';
import { engineHost } from '../openai/openai-client';
import { DeepgramWsTransport } from './deepgram-transport';

/** Bounds of one utterance's exchange with Deepgram. */
export interface DeepgramLimits {
  /**
   * From finish() (or the Finalize sent on a replacement connection) to the final words. Deepgram
   * answers a Finalize in a few hundred ms; past this the turn fails rather than hangs.
   */
  finalTimeoutMs: number;
  /** The WebSocket handshake (the SDK's connection timeout). */
  connectTimeoutMs: number;
}

export const DEEPGRAM_LIMITS: DeepgramLimits = { finalTimeoutMs: 3000, connectTimeoutMs: 5000 };
/** Audio kept per utterance to re-send on a replacement connection: 2 minutes at 16 kHz. */
const MAX_KEPT_SAMPLES = 16_000 * 120;
/**
 * `endpointing` when the agent sets no `endpointing_ms`: Deepgram's own default, 10 ms, ends a turn
 * at any pause between words; 300 ms is what phone agents commonly use (docs/speech-engines.md).
 */
export const DEFAULT_ENDPOINTING_MS = 300;
/** `utterance_end_ms`: Deepgram's word-timing end of utterance, a backstop to `speech_final`. */
const UTTERANCE_END_MS = 1000;
/** How long to wait for Deepgram to close after CloseStream before closing ourselves. */
const CLOSE_GRACE_MS = 2000;

/**
 * Speech recognition by Deepgram's live API (`wss://api.deepgram.com/v1/listen`, through
 * `@deepgram/sdk`): one WebSocket per utterance, opened when the utterance starts (the conversation
 * starts it when its VAD hears speech, so the handshake overlaps the user's words), the 16 kHz
 * linear16 audio streamed as it is heard. Deepgram's interim results are told as partial words and
 * its endpointing (`speech_final`, or an `UtteranceEnd`) ends the turn (`endpointing: 'provider'`);
 * finish() then answers the final words at once, or sends a Finalize and waits for its answer.
 *
 * A connection that drops in an utterance is replaced once, transparently: the utterance's audio so
 * far is sent again on a new one and the dead one's results are forgotten. A second drop, a refused
 * upgrade (a wrong key: 401), an unreachable service or a Finalize unanswered in time end the
 * utterance with an EngineError that finish() throws. Messages name the host, never the key.
 */
export class DeepgramRecognizer implements SpeechRecognizer {
  readonly endpointing = 'provider';
  /** The WebSocket base: `https://` → `wss://`, `http://` → `ws://`, the path kept. */
  readonly baseUrl: string;
  readonly host: string;

  constructor(
    readonly endpoint: EngineEndpoint,
    readonly limits: DeepgramLimits = DEEPGRAM_LIMITS,
  ) {
    this.baseUrl = webSocketBase(endpoint.url);
    this.host = engineHost(endpoint);
  }

  start(language: string, options: RecognitionOptions = {}): RecognitionStream {
    return new DeepgramUtterance(this, language, options.endpointingMs, options.listener ?? {});
  }

  /** Opens one live connection: a client of its own, so its transport (and a refused upgrade's answer) is this one's. */
  async connect(language: string, endpointingMs: number | undefined, transport: (t: DeepgramWsTransport) => void) {
    const client = new DeepgramClient({
      // The settings are the only source of the key (not DEEPGRAM_API_KEY); none: an empty `Token `.
      apiKey: this.endpoint.apiKey ?? '',
      baseUrl: this.baseUrl,
      transportFactory: (url, headers, request) => {
        const created = new DeepgramWsTransport(url, headers, request.protocols);
        transport(created);
        return created;
      },
    });
    return client.listen.v1.connect({
      model: this.endpoint.model,
      language,
      encoding: 'linear16',
      sample_rate: 16_000,
      channels: 1,
      interim_results: 'true',
      // Deepgram's own default (10 ms) ends a turn at the shortest pause between words.
      endpointing: Math.round(endpointingMs ?? DEFAULT_ENDPOINTING_MS),
      // Its word-timing backstop never ends a turn sooner than the endpointing asked for.
      utterance_end_ms: Math.max(UTTERANCE_END_MS, Math.round(endpointingMs ?? 0)),
      vad_events: 'true',
      punctuate: 'true',
      reconnectAttempts: 0,
      shouldReconnect: () => false,
      connectionTimeoutInSeconds: this.limits.connectTimeoutMs / 1000,
    });
  }
}

export function webSocketBase(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  else if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString().replace(/\/+$/, '');
}

type LiveSocket = Awaited<ReturnType<DeepgramRecognizer['connect']>>;

/** One WebSocket of an utterance (the first, or its replacement after a drop). */
interface Connection {
  socket: LiveSocket | null;
  transport: DeepgramWsTransport | null;
  open: boolean;
  /** We closed it (or asked Deepgram to): its close is not a drop. */
  ending: boolean;
  /** Kept chunks already sent on it. */
  sent: number;
  finalizeSent: boolean;
}

interface ResultsMessage {
  type: 'Results';
  is_final?: boolean;
  speech_final?: boolean;
  from_finalize?: boolean;
  channel?: { alternatives?: { transcript?: string }[] };
}

class DeepgramUtterance implements RecognitionStream {
  private readonly kept: Int16Array[] = [];
  private keptSamples = 0;
  private conn: Connection | null = null;
  private connections = 0;
  /** Final segments of the live connection, and its current interim one. */
  private finals: string[] = [];
  private interim = '';
  private told = '';
  private endpointed = false;
  private state: 'live' | 'finishing' | 'over' = 'live';
  private failure: EngineError | null = null;
  private timer: NodeJS.Timeout | null = null;
  private answer: { resolve: (words: string) => void; reject: (err: Error) => void } | null = null;

  constructor(
    private readonly recognizer: DeepgramRecognizer,
    private readonly language: string,
    private readonly endpointingMs: number | undefined,
    private readonly listener: RecognitionListener,
  ) {
    this.open();
  }

  write(pcm: Int16Array): void {
    if (this.state !== 'live' || pcm.length === 0) return;
    // A copy: the caller may reuse its frame buffer. Past 2 minutes audio is sent but not kept.
    const chunk = pcm.slice();
    if (this.keptSamples < MAX_KEPT_SAMPLES) {
      this.kept.push(chunk);
      this.keptSamples += chunk.length;
    }
    const conn = this.conn;
    if (!conn?.open || !conn.socket) return; // sent on open, in order
    try {
      conn.socket.sendMedia(chunk);
      if (conn.sent === this.kept.length - 1) conn.sent = this.kept.length;
    } catch {
      // The socket is closing: its close or error event tells the rest.
    }
  }

  finish(): Promise<string> {
    if (this.failure) {
      const failure = this.failure;
      this.failure = null;
      this.state = 'over';
      return Promise.reject(failure);
    }
    if (this.state !== 'live') return Promise.resolve('');
    if (this.endpointed || this.keptSamples === 0) {
      const words = this.words();
      this.end(words);
      return Promise.resolve(words);
    }
    this.state = 'finishing';
    return new Promise<string>((resolve, reject) => {
      this.answer = { resolve, reject };
      this.armTimer();
      if (this.conn?.open) this.finalize(this.conn);
    });
  }

  cancel(): void {
    if (this.state === 'over') return;
    this.failure = null;
    this.end('', false);
  }

  private get what(): string {
    return `The speech recognition engine at ${this.recognizer.host}`;
  }

  private open(): void {
    const conn: Connection = {
      socket: null,
      transport: null,
      open: false,
      ending: false,
      sent: 0,
      finalizeSent: false,
    };
    this.conn = conn;
    this.connections++;
    this.recognizer
      .connect(this.language, this.endpointingMs, (transport) => (conn.transport = transport))
      .then((socket) => {
        if (conn !== this.conn || this.state === 'over') return;
        conn.socket = socket;
        socket.on('open', () => this.opened(conn));
        socket.on('message', (message) => this.received(conn, message));
        socket.on('close', (event) => this.lost(conn, closeText(event)));
        socket.on('error', (err) => this.lost(conn, errorText(err.message, this.recognizer.limits)));
        socket.connect();
      })
      .catch((err: unknown) => this.lost(conn, err instanceof Error ? err.message : String(err)));
  }

  private opened(conn: Connection): void {
    if (conn !== this.conn || this.state === 'over' || !conn.socket) return;
    conn.open = true;
    try {
      for (let chunk = this.kept[conn.sent]; chunk; chunk = this.kept[++conn.sent]) conn.socket.sendMedia(chunk);
    } catch {
      return; // closing already
    }
    if (this.state === 'finishing') this.finalize(conn);
  }

  private finalize(conn: Connection): void {
    if (conn.finalizeSent || !conn.socket) return;
    conn.finalizeSent = true;
    try {
      conn.socket.sendFinalize({ type: 'Finalize' });
    } catch {
      // closing: its close event brings the retry or the failure
    }
  }

  private received(conn: Connection, message: unknown): void {
    if (conn !== this.conn || this.state === 'over' || !message || typeof message !== 'object') return;
    const type = (message as { type?: unknown }).type;
    if (type === 'UtteranceEnd') {
      if (conn.finalizeSent) this.answered();
      else this.endpoint();
      return;
    }
    if (type !== 'Results') return;
    const results = message as ResultsMessage;
    const transcript = results.channel?.alternatives?.[0]?.transcript ?? '';
    if (results.is_final) {
      if (transcript.trim()) this.finals.push(transcript);
      this.interim = '';
    } else {
      this.interim = transcript;
    }
    this.partial();
    if (conn.finalizeSent && (results.from_finalize || (results.is_final && results.speech_final))) {
      this.answered();
    } else if (results.speech_final) {
      this.endpoint();
    }
  }

  private partial(): void {
    const words = tidy(this.interim ? `${this.finals.join(' ')} ${this.interim}` : this.finals.join(' '));
    if (!words || words === this.told) return;
    this.told = words;
    tell(() => this.listener.partial?.(words));
  }

  private endpoint(): void {
    if (this.endpointed || this.state !== 'live') return;
    this.endpointed = true;
    tell(() => this.listener.endpoint?.());
  }

  /** The Finalize's answer came: finish() resolves the words. */
  private answered(): void {
    if (this.state !== 'finishing') return;
    this.end(this.words());
  }

  /** The connection closed without being asked to, or failed: a replacement once, then the failure. */
  private lost(conn: Connection, why: string): void {
    if (conn !== this.conn || conn.ending || this.state === 'over') return;
    const wasOpen = conn.open;
    conn.ending = true;
    conn.open = false;
    closeQuietly(conn.socket);
    const refusal = conn.transport?.refusal;
    if (refusal) {
      const detail = refusal.detail || 'the WebSocket upgrade was refused.';
      return this.fail(
        new EngineError('recognition', `${this.what} answered ${refusal.status}: ${detail}`, refusal.status),
      );
    }
    if (this.endpointed && this.state === 'live') return; // the words are in: finish() answers them
    if (this.connections >= 2) {
      const what = wasOpen ? 'dropped the connection twice in one utterance' : 'could not be reached';
      return this.fail(new EngineError('recognition', `${this.what} ${what}: ${why}`));
    }
    // The dead connection's words are forgotten: the new one hears the whole utterance again.
    this.finals = [];
    this.interim = '';
    if (this.state === 'finishing') this.armTimer();
    this.open();
  }

  private fail(err: EngineError): void {
    const answer = this.answer;
    this.end(null);
    if (answer) answer.reject(err);
    else this.failure = err;
  }

  /**
   * The utterance is over: no more listener calls, timers cleared, a waiting finish() answered
   * `words` (null: it is rejected by the caller), the connection closed: with a CloseStream when
   * `politely` (Deepgram then closes), else at once.
   */
  private end(words: string | null, politely = words !== null): void {
    this.state = 'over';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const answer = this.answer;
    this.answer = null;
    this.kept.length = 0;
    const conn = this.conn;
    if (conn && !conn.ending) {
      conn.ending = true;
      if (politely && conn.open && conn.socket) closeStream(conn.socket);
      else closeQuietly(conn.socket);
    }
    if (answer && words !== null) answer.resolve(words);
  }

  private armTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    const ms = this.recognizer.limits.finalTimeoutMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      // Final words already in hand (a Finalize left unanswered when nothing was left to finalise): they are the answer.
      const words = this.words();
      if (words) return this.end(words);
      this.fail(new EngineError('recognition', `${this.what} did not answer in time (${ms} ms).`));
    }, ms);
  }

  private words(): string {
    return tidy(this.finals.join(' '));
  }
}

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A listener that throws does not break the connection's handling. */
function tell(call: () => void): void {
  try {
    call();
  } catch {
    // the conversation's problem, not the recogniser's
  }
}

/** The SDK reports its handshake timeout as the bare word TIMEOUT. */
function errorText(message: string, limits: DeepgramLimits): string {
  return message === 'TIMEOUT' ? `no answer to the WebSocket upgrade within ${limits.connectTimeoutMs} ms` : message;
}

function closeText(event: { code?: number; reason?: string }): string {
  const code = event.code ?? 1005;
  return `closed with code ${code}${event.reason ? ` (${event.reason})` : ''}`;
}

function closeQuietly(socket: LiveSocket | null): void {
  try {
    socket?.close();
  } catch {
    // already closed
  }
}

/** CloseStream: Deepgram sends its Metadata and closes; closed here if it has not after a grace. */
function closeStream(socket: LiveSocket): void {
  try {
    socket.sendCloseStream({ type: 'CloseStream' });
  } catch {
    closeQuietly(socket);
    return;
  }
  setTimeout(() => closeQuietly(socket), CLOSE_GRACE_MS).unref();
}
