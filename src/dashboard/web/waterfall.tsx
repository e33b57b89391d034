import type { TranscriptTurn, TurnMetrics } from './live';

/**
 * An agent turn's latency as a waterfall: from the moment the caller stopped speaking to the agent's
 * first audio frame (`voice_to_voice_ms`), each stage a bar offset by the stages before it, with its
 * milliseconds beside it. The bars are SVG rectangles placed in percent of a scale shared by all the
 * turns shown (so that turns compare at a glance); no inline style (the page's CSP has none).
 */

export interface Stage {
  key: string;
  label: string;
  ms: number;
  /** Where the bar starts, in ms from the end of the caller's speech. */
  from: number;
  /** What the stage measures, as its tooltip. */
  help: string;
}

/**
 * The stages of a turn, in order. The metrics give recognition, dialogue and synthesis; what is left
 * of voice-to-voice (the endpointer's wait for silence, the wait for the next outgoing frame) comes
 * first, as the endpointer's is the most of it.
 */
export function stagesOf(m: TurnMetrics): Stage[] {
  const measured = m.stt_ms + m.llm_first_token_ms + m.tts_first_audio_ms;
  const rest = Math.max(0, m.voice_to_voice_ms - measured);
  const parts: Omit<Stage, 'from'>[] = [
    {
      key: 'endpointing',
      label: 'Endpointing and other',
      ms: rest,
      help: 'The rest of voice to voice: the wait for silence that ends the caller’s turn, and for the next audio frame',
    },
    {
      key: 'stt_ms',
      label: 'Recognition',
      ms: m.stt_ms,
      help: 'From the end of the turn to the recogniser’s words',
    },
    {
      key: 'llm_first_token_ms',
      label: 'Dialogue, first words',
      ms: m.llm_first_token_ms,
      help: 'From the words to the first words of the answer (the model, or the built-in dialogue)',
    },
    {
      key: 'tts_first_audio_ms',
      label: 'Synthesis, first audio',
      ms: m.tts_first_audio_ms,
      help: 'From the first words of the answer to its first synthesised audio',
    },
  ];
  let from = 0;
  return parts.map((p) => {
    const stage = { ...p, from };
    from += p.ms;
    return stage;
  });
}

/** The length, in ms, that the widest turn fills (at least 1). */
export function scaleOf(turns: readonly TurnMetrics[]): number {
  let max = 1;
  for (const m of turns)
    max = Math.max(max, m.voice_to_voice_ms, m.stt_ms + m.llm_first_token_ms + m.tts_first_audio_ms);
  return max;
}

const percent = (ms: number, scale: number): string => `${((Math.max(0, ms) / scale) * 100).toFixed(3)}%`;

/** The nearest-rank percentile (`q` in 0..1) of `values`, as the API's `metrics.voice_to_voice_ms`. */
function nearestRank(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] ?? 0;
}

const ms = (value: number): string => `${Math.round(value)} ms`;

function Bar({
  name,
  stageKey,
  value,
  from,
  scale,
  help,
}: {
  name: string;
  stageKey: string;
  value: number;
  from: number;
  scale: number;
  help: string;
}) {
  return (
    <li class="waterfall-row" data-stage={stageKey} data-ms={value} data-from={from}>
      <span class="waterfall-stage" title={help}>
        {name}
      </span>
      <svg
        class="waterfall-track"
        role="img"
        aria-label={`${name}: ${ms(value)}, from ${ms(from)} to ${ms(from + value)}`}
      >
        <title>{help}</title>
        <rect
          class={`waterfall-bar waterfall-${stageKey}`}
          x={percent(from, scale)}
          y="0"
          width={percent(value, scale)}
          height="100%"
          rx="2"
        />
      </svg>
      <span class="waterfall-ms">{ms(value)}</span>
    </li>
  );
}

/** One agent turn's waterfall; `said`: its words in the transcript, when they were found. */
export function Waterfall({
  index,
  metrics: m,
  scale,
  said,
}: {
  index: number;
  metrics: TurnMetrics;
  scale: number;
  said?: TranscriptTurn;
}) {
  const stages = stagesOf(m);
  const titleId = `waterfall-${index}-title`;
  return (
    <figure class="waterfall" aria-labelledby={titleId} data-testid={`waterfall-${index}`} data-t={m.t}>
      <figcaption>
        <h3 id={titleId}>
          Agent turn at {m.t.toFixed(1)} s{m.interrupted ? ' (interrupted)' : ''}
        </h3>
        {said?.content ? <p class="waterfall-said">“{said.content}”</p> : null}
      </figcaption>
      <ol class="waterfall-rows" aria-label={`Agent turn at ${m.t.toFixed(1)} s: stages`}>
        {stages.map((s) => (
          <Bar key={s.key} name={s.label} stageKey={s.key} value={s.ms} from={s.from} scale={scale} help={s.help} />
        ))}
        <Bar
          name="Voice to voice"
          stageKey="voice_to_voice_ms"
          value={m.voice_to_voice_ms}
          from={0}
          scale={scale}
          help="From the end of the caller’s speech to the agent’s first audio frame"
        />
      </ol>
    </figure>
  );
}

/** The waterfalls of a session's measured agent turns, each beside the words it answered with. */
export function Waterfalls({
  turns,
  transcript,
  live = false,
}: {
  turns: readonly TurnMetrics[];
  transcript: readonly TranscriptTurn[];
  /** The call is followed live: its turns are still to come. */
  live?: boolean;
}) {
  if (turns.length === 0)
    return <p class="muted">{live ? 'No measured agent turn yet.' : 'No measured agent turn.'}</p>;
  const scale = scaleOf(turns);
  const v2v = turns.map((m) => m.voice_to_voice_ms);
  const agentTurns = transcript.filter((x) => x.role === 'agent' || x.role === 'assistant');
  return (
    <div class="waterfalls" data-testid="waterfalls">
      <p class="muted small" data-testid="latency-percentiles">
        Voice to voice over {turns.length} {turns.length === 1 ? 'turn' : 'turns'}: median {ms(nearestRank(v2v, 0.5))},
        95th percentile {ms(nearestRank(v2v, 0.95))}.
      </p>
      {turns.map((m, i) => (
        <Waterfall
          key={`${i}-${m.t}`}
          index={i}
          metrics={m}
          scale={scale}
          said={agentTurns.find((x) => x.t !== undefined && Math.abs(x.t - m.t) < 0.0005)}
        />
      ))}
    </div>
  );
}
