import { useEffect, useState } from 'preact/hooks';

/**
 * A session as it happens: `GET /v1/sessions/{id}/live` (docs/conversations-api.md, "Live view"),
 * read with the browser's EventSource. The page is on the platform's origin, so the request carries
 * the dashboard's session cookie, which the /v1 guard accepts for a read as it does for `fetch`; no
 * header is needed. EventSource reconnects by itself with `Last-Event-ID` (the service drains, the
 * network drops), so nothing is missed or told twice. On `ended` the stream is closed here (the
 * server closes it too; EventSource would otherwise reconnect).
 *
 * The stream tells the session from its start, so the lists kept here are whole: the page shows
 * them in place of the session's own while they are longer (the session read lags the stream).
 */

export interface TranscriptTurn {
  role: string;
  content?: string;
  dtmf?: string;
  t?: number;
}

/** One agent turn's latency breakdown, as `metrics.turns[]` of a session. */
export interface TurnMetrics {
  t: number;
  user_speech_end_ms: number;
  agent_audio_start_ms: number;
  voice_to_voice_ms: number;
  stt_ms: number;
  llm_first_token_ms: number;
  tts_first_audio_ms: number;
  interrupted: boolean;
}

export interface LiveEnd {
  status: string;
  end_reason?: string | null;
  ended_at?: string | null;
  duration_seconds?: number | null;
}

export interface LiveView {
  /**
   * `idle`: not followed; `connecting`: (re)connecting; `open`: following; `ended`: the session ended
   * and the stream was closed; `failed`: the server refused the stream (the page polls instead).
   */
  phase: 'idle' | 'connecting' | 'open' | 'ended' | 'failed';
  /** The latest `status` told (`queued`, `in_progress`), or null before the first. */
  status: string | null;
  started_at: string | null;
  transcript: TranscriptTurn[];
  metrics: TurnMetrics[];
  functions: Record<string, unknown>[];
  /** Words of an utterance not yet ended, when a `partial_transcript` was told (cleared by the turn). */
  partial: TranscriptTurn | null;
  end: LiveEnd | null;
}

const IDLE: LiveView = {
  phase: 'idle',
  status: null,
  started_at: null,
  transcript: [],
  metrics: [],
  functions: [],
  partial: null,
  end: null,
};

/** The events the live view tells (`partial_transcript`: a streaming recogniser's words while the caller speaks). */
const EVENTS = ['status', 'turn', 'partial_transcript', 'metrics', 'function_call', 'ended'] as const;
type LiveEvent = (typeof EVENTS)[number];

/** Each message's data is a JSON object as docs/conversations-api.md describes it; anything else is dropped. */
const isObject = (data: unknown): data is Record<string, unknown> =>
  data !== null && typeof data === 'object' && !Array.isArray(data);

function apply(view: LiveView, event: LiveEvent, data: Record<string, unknown>): LiveView {
  switch (event) {
    case 'status':
      return {
        ...view,
        status: typeof data.status === 'string' ? data.status : view.status,
        started_at: typeof data.started_at === 'string' ? data.started_at : view.started_at,
      };
    case 'turn':
      return { ...view, transcript: [...view.transcript, turnOf(data)], partial: null };
    case 'partial_transcript':
      return { ...view, partial: turnOf({ role: 'user', ...data }) };
    case 'metrics':
      return { ...view, metrics: [...view.metrics, metricsOf(data)] };
    case 'function_call':
      return { ...view, functions: [...view.functions, data] };
    case 'ended':
      return {
        ...view,
        phase: 'ended',
        partial: null,
        end: {
          status: typeof data.status === 'string' ? data.status : 'completed',
          end_reason: typeof data.end_reason === 'string' ? data.end_reason : null,
          ended_at: typeof data.ended_at === 'string' ? data.ended_at : null,
          duration_seconds: typeof data.duration_seconds === 'number' ? data.duration_seconds : null,
        },
      };
  }
}

function turnOf(data: Record<string, unknown>): TranscriptTurn {
  const turn: TranscriptTurn = { role: typeof data.role === 'string' ? data.role : 'user' };
  if (typeof data.content === 'string') turn.content = data.content;
  if (typeof data.dtmf === 'string') turn.dtmf = data.dtmf;
  if (typeof data.t === 'number') turn.t = data.t;
  return turn;
}

const number = (value: unknown): number => (typeof value === 'number' ? value : 0);

function metricsOf(data: Record<string, unknown>): TurnMetrics {
  return {
    t: number(data.t),
    user_speech_end_ms: number(data.user_speech_end_ms),
    agent_audio_start_ms: number(data.agent_audio_start_ms),
    voice_to_voice_ms: number(data.voice_to_voice_ms),
    stt_ms: number(data.stt_ms),
    llm_first_token_ms: number(data.llm_first_token_ms),
    tts_first_audio_ms: number(data.tts_first_audio_ms),
    interrupted: data.interrupted === true,
  };
}

/**
 * Follows session `id` while `active`; the view is kept (for the page to show) once the stream ends
 * or `active` turns false, and starts afresh for another id. `onEnded` runs once, when `ended` comes.
 */
export function useLiveView(id: string, active: boolean, onEnded?: () => void): LiveView {
  const [state, setState] = useState<{ id: string; view: LiveView }>({ id, view: IDLE });
  const view = state.id === id ? state.view : IDLE;
  const done = view.phase === 'ended' || view.phase === 'failed';
  useEffect(() => {
    if (!active || done) return;
    const update = (change: (v: LiveView) => LiveView) =>
      setState((s) => ({ id, view: change(s.id === id ? s.view : IDLE) }));
    const source = new EventSource(`/v1/sessions/${encodeURIComponent(id)}/live`);
    // A new stream tells the session from its start again: what an earlier one told is dropped.
    update(() => ({ ...IDLE, phase: 'connecting' }));
    source.onopen = () => update((v) => ({ ...v, phase: 'open' }));
    source.onerror = () => {
      // CLOSED: refused (404, 401) or not a stream; it will not retry. Otherwise it is reconnecting.
      const phase = source.readyState === EventSource.CLOSED ? 'failed' : 'connecting';
      update((v) => (v.phase === 'ended' ? v : { ...v, phase }));
    };
    for (const event of EVENTS) {
      source.addEventListener(event, (message: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        if (!isObject(data)) return;
        if (event === 'ended') {
          source.close();
          onEnded?.();
        }
        update((v) => apply(v, event, data));
      });
    }
    return () => source.close();
  }, [id, active, done]);
  return view;
}

/** The longer of two tellings of the same list (the session's, the live view's): the more recent one. */
export function longer<T>(a: readonly T[], b: readonly T[]): readonly T[] {
  return b.length > a.length ? b : a;
}
