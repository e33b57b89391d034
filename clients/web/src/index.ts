/**
 * @voice-agent/web: a call with the platform's agent from any web page.
 *
 *   const call = await joinRoom(roomUrl);          // the room's link, as `room_url` gives it
 *   call.on('transcript', (turn) => show(turn));   // each turn as it is stored
 *   call.on('ended', (end) => done(end.status));
 *   await call.hangUp();
 *
 * It asks for the microphone, offers WebRTC to the room's WHIP endpoint (RFC 9725) with the link's
 * token, plays the agent's voice, follows the room's live channel (Server-Sent Events) for the
 * transcript and the end, and tells who is speaking from the audio's level. One file, no
 * dependencies; the room's own landing page is built on it (README.md).
 */

/** A stored turn of the transcript, as the session's `transcript[]` holds it. */
export interface TranscriptTurn {
  /** `agent` or `user` (a transferred call's other party may have its own). */
  role: string;
  content: string;
  /** Seconds from the start of the call. */
  t: number;
  [field: string]: unknown;
}

/** The caller's words heard so far, before the turn is stored (streaming recognisers only). */
export interface PartialTranscript {
  role: 'user';
  content: string;
  t: number;
}

/** How the call ended. */
export interface CallEnded {
  /** `hang_up`: this page hung up; `remote`: the agent or the platform ended it; `connection_lost`. */
  reason: 'hang_up' | 'remote' | 'connection_lost';
  /** The room's or session's final status (`completed`, `failed`, …) when it is known. */
  status: string | null;
  /** The session's `end_reason` (`hangup`, `agent_ended`, …) when the live channel told it. */
  endReason: string | null;
}

export interface CallEventMap {
  /** The agent's voice started (its level rose above the threshold). */
  agent_speaking: void;
  /** The agent's voice stopped for `silenceMs`. */
  agent_silent: void;
  /** The microphone heard the user (never while muted). */
  user_speaking: void;
  /** The microphone was quiet for `silenceMs` after the user spoke. */
  user_silent: void;
  transcript: TranscriptTurn;
  partial_transcript: PartialTranscript;
  /** Once, last. */
  ended: CallEnded;
  /** Something went wrong during the call (a failure to join rejects `joinRoom` instead). */
  error: RoomCallError;
}

export type CallEventName = keyof CallEventMap;

/** Why a call could not start or went wrong, as a stable `code`. */
export type RoomCallErrorCode =
  | 'invalid_link' // not a room link, or its token was changed (403)
  | 'room_not_found' // 404
  | 'room_expired' // the link's time is up (410)
  | 'room_ended' // the room's call already took place, or the room failed (410)
  | 'room_in_use' // someone has already joined (409)
  | 'at_capacity' // the agent cannot take another call now (503): see retryAfterSeconds
  | 'rate_limited' // the account's live rooms are at their cap (429): see retryAfterSeconds
  | 'microphone_refused' // the user or the page's permissions policy said no
  | 'microphone_unavailable' // no microphone, or it is in use elsewhere
  | 'not_supported' // no WebRTC or no getUserMedia (or not a secure context)
  | 'network_error' // the platform could not be reached
  | 'connection_failed' // the media connection did not come up, or broke
  | 'transcript_unavailable' // the live channel was refused (the call itself goes on)
  | 'request_failed'; // any other refusal: see status and message

export class RoomCallError extends Error {
  override readonly name = 'RoomCallError';

  constructor(
    readonly code: RoomCallErrorCode,
    message: string,
    /** The HTTP status of a refusal; null when no response was involved. */
    readonly status: number | null = null,
    /** When to try again (`Retry-After`), for at_capacity and rate_limited. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

export interface JoinOptions {
  /**
   * The microphone: a MediaStream or track the page already has (not stopped by the call), or a
   * device id; by default `getUserMedia({ audio: true })`.
   */
  audioInput?: MediaStream | MediaStreamTrack | string;
  /** Where the agent's voice plays; by default an element the call makes (not in the document). */
  audioElement?: HTMLAudioElement;
  /** RMS level (0–1) above which a voice counts as speaking. Default 0.01 (about −40 dBFS). */
  speakingThreshold?: number;
  /** How long a voice must stay below the threshold to count as silent. Default 600 ms. */
  silenceMs?: number;
  /** How long to wait for the media connection. Default 15 s. */
  connectTimeoutMs?: number;
}

export interface RoomCall {
  /** Adds a listener; returns a function that removes it. */
  on<E extends CallEventName>(event: E, listener: (data: CallEventMap[E]) => void): () => void;
  off<E extends CallEventName>(event: E, listener: (data: CallEventMap[E]) => void): void;
  /** Sends silence instead of the microphone (the agent hears nothing) until `unmute()`. */
  mute(): void;
  unmute(): void;
  readonly muted: boolean;
  /** Ends the call; resolves once the platform has been told. Calling it again does nothing. */
  hangUp(): Promise<void>;
  readonly ended: boolean;
  /** Every stored turn so far. */
  readonly transcript: readonly TranscriptTurn[];
  /** The microphone's current level (RMS, 0–1): for a meter. */
  readonly inputLevel: number;
  /** The agent's current level (RMS, 0–1). */
  readonly outputLevel: number;
  /** The microphone's stream, as sent. */
  readonly microphone: MediaStream;
}

const GATHER_TIMEOUT_MS = 3000;
const LEVEL_EVERY_MS = 50;

/** Joins the room the link points to; resolves once the agent's peer is connected. */
export async function joinRoom(roomUrl: string, options: JoinOptions = {}): Promise<RoomCall> {
  const link = parseLink(roomUrl);
  if (typeof RTCPeerConnection === 'undefined' || !navigator.mediaDevices?.getUserMedia)
    throw new RoomCallError('not_supported', 'This browser cannot make WebRTC calls here (it needs a secure context).');
  const { stream, owned } = await microphone(options.audioInput);
  let call: Call;
  try {
    call = new Call(link, stream, owned, options);
  } catch (err) {
    if (owned) for (const track of stream.getTracks()) track.stop();
    throw new RoomCallError('not_supported', `The call could not be set up: ${String(err)}`);
  }
  try {
    await call.connect(options.connectTimeoutMs ?? 15_000);
  } catch (err) {
    await call.abandon();
    if (err instanceof RoomCallError) throw err;
    // The browser's WebRTC refused something (the offer, the answer): a connection that cannot be made.
    throw new RoomCallError('connection_failed', `The connection to the agent could not be made: ${String(err)}`);
  }
  return call;
}

interface RoomLink {
  /** `{origin}/rooms/{room_id}` */
  base: string;
  /** `?token=…` */
  query: string;
}

function parseLink(roomUrl: string): RoomLink {
  let url: URL;
  try {
    url = new URL(roomUrl, typeof location === 'undefined' ? undefined : location.href);
  } catch {
    throw new RoomCallError('invalid_link', 'This is not a room link.');
  }
  const path = url.pathname.replace(/\/+$/, '');
  const token = url.searchParams.get('token');
  if (!/\/rooms\/[^/]+$/.test(path) || !token)
    throw new RoomCallError('invalid_link', 'This is not a room link: it needs /rooms/{room_id}?token=….');
  return { base: url.origin + path, query: `?token=${encodeURIComponent(token)}` };
}

async function microphone(input: JoinOptions['audioInput']): Promise<{ stream: MediaStream; owned: boolean }> {
  if (input instanceof MediaStream) return { stream: input, owned: false };
  if (typeof MediaStreamTrack !== 'undefined' && input instanceof MediaStreamTrack)
    return { stream: new MediaStream([input]), owned: false };
  const audio: MediaTrackConstraints | true = typeof input === 'string' ? { deviceId: { exact: input } } : true;
  try {
    return { stream: await navigator.mediaDevices.getUserMedia({ audio, video: false }), owned: true };
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    const detail = err instanceof Error && err.message ? `: ${err.message}` : '';
    if (name === 'NotAllowedError' || name === 'SecurityError')
      throw new RoomCallError('microphone_refused', `The call needs your microphone, and it was refused${detail}.`);
    throw new RoomCallError('microphone_unavailable', `No microphone could be used${detail}.`);
  }
}

/** The error of a refused request: the platform's error body when there is one. */
async function refusalOf(response: Response, what: string): Promise<RoomCallError> {
  let message = `${what} was refused (HTTP ${response.status}).`;
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message;
  } catch {
    // not JSON: the status says enough
  }
  const retryAfter = retryAfterOf(response.headers.get('retry-after'));
  const code: RoomCallErrorCode =
    response.status === 403
      ? 'invalid_link'
      : response.status === 404
        ? 'room_not_found'
        : response.status === 409
          ? 'room_in_use'
          : response.status === 410
            ? /expired/i.test(message)
              ? 'room_expired'
              : 'room_ended'
            : response.status === 429
              ? 'rate_limited'
              : response.status === 503
                ? 'at_capacity'
                : 'request_failed';
  return new RoomCallError(code, message, response.status, retryAfter);
}

/** `Retry-After` in seconds (a number of seconds or an HTTP date), or null when absent or unreadable. */
function retryAfterOf(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : null;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Speaking or not, from a level sampled every LEVEL_EVERY_MS, with a hang-over of `silenceMs`. */
class Voice {
  speaking = false;
  level = 0;
  private quietFor = 0;

  constructor(
    private readonly analyser: AnalyserNode,
    private readonly threshold: number,
    private readonly silenceMs: number,
  ) {}

  /** The new state when it changed, else null. */
  sample(): 'speaking' | 'silent' | null {
    const samples = new Float32Array(this.analyser.fftSize);
    this.analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const v of samples) sum += v * v;
    this.level = Math.sqrt(sum / samples.length);
    if (this.level >= this.threshold) {
      this.quietFor = 0;
      if (this.speaking) return null;
      this.speaking = true;
      return 'speaking';
    }
    this.quietFor += LEVEL_EVERY_MS;
    if (!this.speaking || this.quietFor < this.silenceMs) return null;
    this.speaking = false;
    return 'silent';
  }
}

class Call implements RoomCall {
  private readonly listeners = new Map<CallEventName, Set<(data: never) => void>>();
  private readonly turns: TranscriptTurn[] = [];
  private readonly pc = new RTCPeerConnection();
  private readonly player: HTMLAudioElement;
  private readonly ownPlayer: boolean;
  private audio: AudioContext | null = null;
  private user: Voice | null = null;
  private agent: Voice | null = null;
  private levelTimer: ReturnType<typeof setInterval> | undefined;
  private live: EventSource | null = null;
  private resource: string | null = null;
  /** Events wait here until the caller of joinRoom has had a chance to listen. */
  private pending: Array<() => void> | null = [];
  private isMuted = false;
  private isEnded = false;
  private hangingUp: Promise<void> | null = null;
  /** Aborted by release(): a join still waiting for its connection stops waiting. */
  private readonly released = new AbortController();
  /** The caller's own tracks' `enabled`, given back at the end (mute sets it). */
  private readonly givenBack = new Map<MediaStreamTrack, boolean>();
  private readonly onPageHide = (): void => {
    if (this.resource && !this.isEnded) void fetch(this.resource, { method: 'DELETE', keepalive: true });
  };

  constructor(
    private readonly link: RoomLink,
    readonly microphone: MediaStream,
    private readonly ownsMicrophone: boolean,
    private readonly options: JoinOptions,
  ) {
    this.ownPlayer = !options.audioElement;
    if (!ownsMicrophone) for (const track of microphone.getAudioTracks()) this.givenBack.set(track, track.enabled);
    this.player = options.audioElement ?? new Audio();
    this.player.autoplay = true;
  }

  get muted(): boolean {
    return this.isMuted;
  }
  get ended(): boolean {
    return this.isEnded;
  }
  get transcript(): readonly TranscriptTurn[] {
    return this.turns;
  }
  get inputLevel(): number {
    return this.isMuted ? 0 : (this.user?.level ?? 0);
  }
  get outputLevel(): number {
    return this.agent?.level ?? 0;
  }

  on<E extends CallEventName>(event: E, listener: (data: CallEventMap[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => this.off(event, listener);
  }

  off<E extends CallEventName>(event: E, listener: (data: CallEventMap[E]) => void): void {
    this.listeners.get(event)?.delete(listener);
  }

  mute(): void {
    this.setMuted(true);
  }

  unmute(): void {
    this.setMuted(false);
  }

  hangUp(): Promise<void> {
    if (this.hangingUp) return this.hangingUp;
    if (this.isEnded) return Promise.resolve();
    const resource = this.resource;
    this.resource = null;
    this.release();
    this.hangingUp = (async () => {
      let status: string | null = null;
      if (resource) {
        try {
          // keepalive: a page that navigates away right after still tells the platform.
          const response = await fetch(resource, { method: 'DELETE', keepalive: true, signal: timeout(5000) });
          if (response.ok) status = ((await response.json()) as { status?: string }).status ?? null;
        } catch {
          // unanswered: the platform ends a call whose peer went away on its own (30 s)
        }
      }
      this.finish({ reason: 'hang_up', status, endReason: null });
    })();
    return this.hangingUp;
  }

  /** WHIP: the offer with every candidate, the answer, then the media connection. */
  async connect(timeoutMs: number): Promise<void> {
    const pc = this.pc;
    for (const track of this.microphone.getAudioTracks())
      pc.addTransceiver(track, { direction: 'sendrecv', streams: [this.microphone] });
    pc.addEventListener('track', (event) => this.playAgent(event.streams[0] ?? new MediaStream([event.track])));
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    const whip = `${this.link.base}/whip${this.link.query}`;
    let response: Response;
    try {
      response = await fetch(whip, {
        method: 'POST',
        headers: { 'Content-Type': 'application/sdp' },
        body: pc.localDescription?.sdp ?? '',
      });
    } catch (err) {
      throw new RoomCallError('network_error', `The platform could not be reached: ${String(err)}`);
    }
    if (response.status !== 201) throw await refusalOf(response, 'Joining the room');
    const location = response.headers.get('Location');
    this.resource = location ? new URL(location, whip).toString() : null;
    await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
    this.followLive();
    this.watchLevels();
    addEventListener('pagehide', this.onPageHide);
    await connected(pc, timeoutMs, this.released.signal);
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState !== 'failed' || this.isEnded) return;
      this.emit('error', new RoomCallError('connection_failed', 'The connection to the agent was lost.'));
      this.release();
      this.finish({ reason: 'connection_lost', status: null, endReason: null });
    });
    // The caller listens once joinRoom has resolved: what came meanwhile is told then.
    setTimeout(() => {
      const queued = this.pending ?? [];
      this.pending = null;
      for (const tell of queued) tell();
    }, 0);
  }

  /** A join that did not complete: the media stops and the platform is told (a WHIP DELETE). */
  async abandon(): Promise<void> {
    const resource = this.resource;
    this.resource = null;
    this.release();
    this.isEnded = true;
    if (resource)
      await fetch(resource, { method: 'DELETE', keepalive: true, signal: timeout(5000) }).catch(() => undefined);
  }

  /** Stops the media, the live channel and the level watch (idempotent). */
  release(): void {
    this.released.abort();
    clearInterval(this.levelTimer);
    removeEventListener('pagehide', this.onPageHide);
    this.live?.close();
    this.live = null;
    this.pc.close();
    if (this.ownsMicrophone) for (const track of this.microphone.getTracks()) track.stop();
    for (const [track, enabled] of this.givenBack) track.enabled = enabled;
    void this.audio?.close().catch(() => undefined);
    this.audio = null;
    this.player.srcObject = null;
    if (this.ownPlayer) this.player.pause();
  }

  private setMuted(muted: boolean): void {
    if (this.isEnded) return;
    this.isMuted = muted;
    for (const track of this.microphone.getAudioTracks()) track.enabled = !muted;
    if (muted && this.user?.speaking) {
      this.user.speaking = false;
      this.emit('user_silent', undefined);
    }
  }

  private playAgent(stream: MediaStream): void {
    this.player.srcObject = stream;
    void this.player.play().catch(() => undefined);
    if (this.audio) this.agent = this.voiceOf(this.audio, stream);
  }

  private voiceOf(context: AudioContext, stream: MediaStream): Voice {
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(stream).connect(analyser);
    return new Voice(analyser, this.options.speakingThreshold ?? 0.01, this.options.silenceMs ?? 600);
  }

  private watchLevels(): void {
    const context = new AudioContext();
    void context.resume().catch(() => undefined);
    this.audio = context;
    this.user = this.voiceOf(context, this.microphone);
    const playing = this.player.srcObject;
    if (playing instanceof MediaStream) this.agent = this.voiceOf(context, playing);
    this.levelTimer = setInterval(() => {
      const agent = this.agent?.sample();
      if (agent) this.emit(agent === 'speaking' ? 'agent_speaking' : 'agent_silent', undefined);
      const user = this.user?.sample();
      if (user && !this.isMuted) this.emit(user === 'speaking' ? 'user_speaking' : 'user_silent', undefined);
    }, LEVEL_EVERY_MS);
  }

  /** The room's live channel: stored turns, partial words and the end. */
  private followLive(): void {
    const live = new EventSource(`${this.link.base}/live${this.link.query}`);
    this.live = live;
    const data = (event: Event): Record<string, unknown> => {
      try {
        return JSON.parse((event as MessageEvent<string>).data) as Record<string, unknown>;
      } catch {
        return {};
      }
    };
    live.addEventListener('turn', (event) => {
      const turn = data(event) as TranscriptTurn;
      this.turns.push(turn);
      this.emit('transcript', turn);
    });
    live.addEventListener('partial_transcript', (event) =>
      this.emit('partial_transcript', data(event) as unknown as PartialTranscript),
    );
    live.addEventListener('ended', (event) => {
      const end = data(event);
      this.release();
      this.finish({
        reason: 'remote',
        status: typeof end.status === 'string' ? end.status : null,
        endReason: typeof end.end_reason === 'string' ? end.end_reason : null,
      });
    });
    live.addEventListener('error', () => {
      // A dropped stream reconnects by itself (with Last-Event-ID); a refused one is closed for good.
      if (live.readyState !== EventSource.CLOSED || this.isEnded) return;
      this.emit('error', new RoomCallError('transcript_unavailable', 'The live transcript could not be followed.'));
    });
  }

  private finish(end: CallEnded): void {
    if (this.isEnded) return;
    this.isEnded = true;
    this.emit('ended', end);
  }

  private emit<E extends CallEventName>(event: E, data: CallEventMap[E]): void {
    const tell = (): void => {
      for (const listener of [...(this.listeners.get(event) ?? [])]) {
        try {
          (listener as (value: CallEventMap[E]) => void)(data);
        } catch (err) {
          // One listener's failure reaches the page's error handler, not the others or the call.
          setTimeout(() => {
            throw err;
          }, 0);
        }
      }
    };
    if (this.pending) this.pending.push(tell);
    else tell();
  }
}

/** Waits for the browser's own ICE candidates (no trickle in WHIP here), at most GATHER_TIMEOUT_MS. */
function gathered(pc: RTCPeerConnection): Promise<void> {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}

/** An AbortSignal that fires after `ms` (AbortSignal.timeout where the browser has it). */
function timeout(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

/** Resolves once the peer connection is up; rejects when it fails, times out, or the call was released. */
function connected(pc: RTCPeerConnection, timeoutMs: number, released: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (): void =>
      reject(new RoomCallError('connection_failed', 'The media connection to the agent could not be made.'));
    const timer = setTimeout(fail, timeoutMs);
    // The call ended before it connected (the live channel told it): the join is over.
    released.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new RoomCallError('room_ended', 'The call ended before it connected.'));
    });
    const check = (): void => {
      if (pc.connectionState === 'connected') {
        clearTimeout(timer);
        resolve();
      } else if (pc.connectionState === 'failed' || pc.connectionState === 'closed') {
        clearTimeout(timer);
        fail();
      }
    };
    pc.addEventListener('connectionstatechange', check);
    check();
  });
}
