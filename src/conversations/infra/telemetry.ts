import type { TurnTelemetry } from '../pipeline/turn-telemetry';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { context, type Span, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import { Counter, Histogram, Registry } from 'prom-client';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { RuntimeMetrics } from '../../runtime/observability/runtime-metrics';
import { conversationsSettings } from '../conversations.config';
import type { EngineKind } from '../engines/engines';

/**
 * The conversations' observability (docs/speech-engines.md, "Observability"): one OpenTelemetry
 * trace per turn, exported over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces` when it is set,
 * and latency histograms served at /metrics. The pipeline calls:
 *
 *   const turn = telemetry.turn(sessionId);          // span `conversation.turn`, attribute session.id
 *   const stt = turn.span('recognition');            // a child span, started now
 *   stt.end();                                       // ended now: its duration is the span's
 *   turn.span('tool_call', { 'tool.name': 'lookup' }).end({ 'tool.status': 'timeout' });
 *   turn.end({ interrupted: false });
 *   telemetry.observe('voice_to_voice', 640);        // into conversation_voice_to_voice_ms
 *
 * Every span carries `session.id`, and `tenant.id` for a conversation the pipeline opened; the
 * exporter's resource names the service (`service.name`: OTEL_SERVICE_NAME, default
 * `voice-agent-platform`), so a tracing backend shows one call's turns under it. A span ended with `status` or `tool.status` other than
 * `succeeded`/`ok` is marked as an error. Without an endpoint the spans are no-ops (nothing is
 * recorded), and the histograms are kept all the same.
 */

/** The child spans of a turn, in the order a turn goes through them. */
export type TurnSpanName = 'endpointing' | 'recognition' | 'model.first_token' | 'synthesis.first_audio' | 'tool_call';

/** The histograms, each `conversation_<metric>_ms`. */
export type ConversationMetric =
  'voice_to_voice' | 'stt' | 'llm_first_token' | 'tts_first_audio' | 'barge_in_stop' | 'greeting_first_audio';

export type SpanAttributes = Record<string, string | number | boolean>;

export interface TurnSpan {
  /** Ends the span now; `attrs` are added first (a tool's `tool.status`, an engine's `error`). */
  end(attrs?: SpanAttributes): void;
}

export interface TurnTrace {
  /** Starts a child span of the turn now. */
  span(name: TurnSpanName, attrs?: SpanAttributes): TurnSpan;
  /** Ends the turn's span now (its children still open are ended with it). */
  end(attrs?: SpanAttributes): void;
}

const HISTOGRAMS: Record<ConversationMetric, string> = {
  voice_to_voice: "From the end of the user's speech to the agent's first audio frame out, per turn.",
  stt: 'From the end of the utterance to its words (speech recognition), per turn.',
  llm_first_token: "From the model's request to its first text or tool call, per turn.",
  tts_first_audio: "From the first sentence's synthesis request to its audio, per turn.",
  barge_in_stop: "From the user's speech starting over the agent to the agent's audio stopping.",
  greeting_first_audio:
    "From the call's answer (a phone call's 200, a room's join) to the agent's opening line's first audio, per conversation.",
};

/** Milliseconds, for latencies of 0 to 5 s: finer where the targets are (300 ms barge-in, 1 s voice-to-voice). */
export const LATENCY_BUCKETS_MS = [25, 50, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1250, 1500, 2000, 3000, 5000];

/** The instrumentation scope of the spans. */
export const TRACER_NAME = 'voice-agent-platform/conversations';

@Injectable()
export class ConversationTelemetry implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ConversationTelemetry');
  readonly registry = new Registry();
  private readonly histograms: Record<ConversationMetric, Histogram>;
  private readonly failures: Counter<'engine'>;
  private readonly underruns: Counter;
  /** Set by onModuleInit when OTEL_EXPORTER_OTLP_ENDPOINT is: the SDK and its exporter are loaded then only. */
  private provider: TracerProvider | null = null;
  /** Until then (and without an endpoint), the API's no-op tracer: spans cost nothing and go nowhere. */
  private tracer: Tracer = trace.getTracer(TRACER_NAME);
  private readonly otlpEndpoint: string | null;
  private readonly serviceName: string;
  /** The tenant of each conversation open (`opened`), for its spans. */
  private readonly tenants = new Map<string, string>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly runtimeMetrics: RuntimeMetrics,
  ) {
    const histograms: Partial<Record<ConversationMetric, Histogram>> = {};
    for (const [metric, help] of Object.entries(HISTOGRAMS) as [ConversationMetric, string][]) {
      histograms[metric] = new Histogram({
        name: `conversation_${metric}_ms`,
        help,
        buckets: LATENCY_BUCKETS_MS,
        registers: [this.registry],
      });
    }
    this.histograms = histograms as Record<ConversationMetric, Histogram>;
    this.failures = new Counter({
      name: 'conversation_engine_failures_total',
      help: 'Calls to a hosted engine that failed (unreachable, timed out, an error status), by engine.',
      labelNames: ['engine'],
      registers: [this.registry],
    });
    for (const engine of ['recognition', 'synthesis', 'model'] as const) this.failures.inc({ engine }, 0);
    this.underruns = new Counter({
      name: 'conversation_audio_underruns_total',
      help: "20 ms ticks that sent silence in the middle of an agent's answer (its next sentence not synthesised in time).",
      registers: [this.registry],
    });

    const settings = settingsOf(config, conversationsSettings);
    this.otlpEndpoint = settings.otlpEndpoint;
    this.serviceName = settings.serviceName;
  }

  async onModuleInit(): Promise<void> {
    this.runtimeMetrics.contribute(this.registry);
    const endpoint = this.otlpEndpoint;
    if (!endpoint) return;
    // Loaded only when traces are exported: the SDK and exporter are heavy (decision 176 has the figure).
    const [{ OTLPTraceExporter }, { BatchSpanProcessor, TracerProvider }, { resourceFromAttributes }] =
      await Promise.all([
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/sdk-trace'),
        import('@opentelemetry/resources'),
      ]);
    const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces`, timeoutMillis: 10_000 });
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': this.serviceName }),
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 2000, maxQueueSize: 4096 })],
    });
    this.tracer = this.provider.getTracer(TRACER_NAME);
  }

  /** The attributes every span of `sessionId`'s conversation carries. */
  private ids(sessionId: string): SpanAttributes {
    const tenantId = this.tenants.get(sessionId);
    return tenantId ? { 'session.id': sessionId, 'tenant.id': tenantId } : { 'session.id': sessionId };
  }

  /** Starts the trace of one turn of `sessionId`'s conversation. */
  turn(sessionId: string): TurnTrace {
    const root = this.tracer.startSpan('conversation.turn', { attributes: this.ids(sessionId) });
    const parent = trace.setSpan(context.active(), root);
    const open = new Set<Span>();
    let ended = false;
    return {
      span: (name, attrs) => {
        const span = this.tracer.startSpan(name, { attributes: { ...this.ids(sessionId), ...attrs } }, parent);
        open.add(span);
        return {
          end: (endAttrs) => {
            if (!open.delete(span)) return;
            finish(span, endAttrs);
          },
        };
      },
      end: (attrs) => {
        if (ended) return;
        ended = true;
        for (const span of open) finish(span, { 'turn.ended_first': true });
        open.clear();
        finish(root, attrs);
      },
    };
  }

  /** The name the pipeline's brief uses for `turn`. */
  startTurnSpan(sessionId: string): TurnTrace {
    return this.turn(sessionId);
  }

  /** One latency, in milliseconds, into `conversation_<metric>_ms` (negative or non-finite values are dropped). */
  observe(metric: ConversationMetric, ms: number): void {
    if (Number.isFinite(ms) && ms >= 0) this.histograms[metric].observe(ms);
  }

  /** A hosted engine's call failed (conversation_engine_failures_total). */
  engineFailed(engine: EngineKind): void {
    this.failures.inc({ engine });
  }

  /**
   * The pipeline's port (pipeline/turn-telemetry.ts) on these spans and histograms. The pipeline
   * reports a turn once its first audio is out, with its breakdown; the spans are laid back from that
   * moment: endpointing (the end of speech to the end of the utterance), recognition, the model's
   * first words, the first audio, under one `conversation.turn` span covering voice-to-voice.
   */
  forPipeline(): TurnTelemetry {
    return {
      opened: (sessionId, tenantId) => {
        this.tenants.set(sessionId, tenantId);
        return () => this.tenants.delete(sessionId);
      },
      turn: (sessionId, m) => {
        const audio = Date.now();
        const firstText = audio - m.tts_first_audio_ms;
        const words = firstText - m.llm_first_token_ms;
        const utteranceEnd = words - m.stt_ms;
        const speechEnd = audio - m.voice_to_voice_ms;
        const attributes = { ...this.ids(sessionId), 'turn.interrupted': m.interrupted };
        const root = this.tracer.startSpan('conversation.turn', { attributes, startTime: speechEnd });
        const parent = trace.setSpan(context.active(), root);
        const child = (name: TurnSpanName, from: number, to: number) =>
          this.tracer
            .startSpan(name, { attributes: this.ids(sessionId), startTime: Math.min(from, to) }, parent)
            .end(to);
        child('endpointing', speechEnd, utteranceEnd);
        child('recognition', utteranceEnd, words);
        child('model.first_token', words, firstText);
        child('synthesis.first_audio', firstText, audio);
        root.end(audio);
        this.observe('voice_to_voice', m.voice_to_voice_ms);
        this.observe('stt', m.stt_ms);
        this.observe('llm_first_token', m.llm_first_token_ms);
        this.observe('tts_first_audio', m.tts_first_audio_ms);
      },
      toolCall: (sessionId, call) => {
        const now = Date.now();
        const span = this.tracer.startSpan('tool_call', {
          attributes: { ...this.ids(sessionId), 'tool.name': call.name },
          startTime: now - call.duration_ms,
        });
        span.setAttributes({ 'tool.status': call.status, 'tool.duration_ms': call.duration_ms });
        if (call.status !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR, message: call.status });
        span.end(now);
      },
      bargeIn: (_sessionId, stopMs) => this.observe('barge_in_stop', stopMs),
      greeting: (_sessionId, firstAudioMs) => this.observe('greeting_first_audio', firstAudioMs),
      underrun: () => this.underruns.inc(),
      engineFailed: (_sessionId, engine) => this.engineFailed(engine),
    };
  }

  /** Sends the spans ended so far (tests; shutdown does it too). */
  async flush(): Promise<void> {
    await this.provider?.forceFlush();
  }

  async onApplicationShutdown(): Promise<void> {
    try {
      await this.provider?.shutdown();
    } catch (err) {
      this.logger.warn(`Spans could not be exported at shutdown: ${(err as Error).message}`);
    }
  }
}

function finish(span: Span, attrs?: SpanAttributes): void {
  if (attrs) span.setAttributes(attrs);
  const status = attrs?.['tool.status'] ?? attrs?.status;
  if (typeof status === 'string' && status !== 'succeeded' && status !== 'ok') {
    span.setStatus({ code: SpanStatusCode.ERROR, message: status });
  }
  if (typeof attrs?.error === 'string') span.setStatus({ code: SpanStatusCode.ERROR, message: attrs.error });
  span.end();
}
