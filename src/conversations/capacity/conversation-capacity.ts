import { availableParallelism } from 'node:os';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { mediaClockLateness } from '../../kernel/media/lateness-window';
import { ReadinessDetails } from '../../runtime/observability/readiness-details';
import { RuntimeMetrics } from '../../runtime/observability/runtime-metrics';
import { Drains } from '../../runtime/workers/drains';
import { conversationsSettings } from '../conversations.config';
import { SPEECH_RECOGNIZER, type SpeechRecognizer } from '../engines/engines';
import {
  type Admission,
  type AdmissionLimits,
  type AdmissionState,
  admits,
  afterWindow,
  DEFAULT_LIMITS,
  type Headroom,
  OPEN,
  type RefusalReason,
} from './admission';

/** The headroom is measured over windows of this length. */
const WINDOW_MS = 1_000;
/** Conversations per core by default: the embedded recogniser is the costly part (decision 188). */
const PER_CORE_EMBEDDED = 4;
const PER_CORE_HOSTED = 25;
/** An outbound call waiting in line that has not asked again for this long has gone (dialled elsewhere, ended). */
const WAITER_GONE_MS = 10_000;
/** What a refused caller is told to wait before trying again. */
export const CAPACITY_RETRY_AFTER_SECONDS = 5;

/** What asks for a place: the kinds of conversation, for the refusal counts. */
export type ConversationKind = 'phone_inbound' | 'phone_outbound' | 'room' | 'persona';

/** A place taken: given back once, by whoever ends the conversation (again: nothing happens). */
export interface ConversationSlot {
  release(): void;
}

export type SlotRequest =
  { slot: ConversationSlot } | { slot: null; reason: RefusalReason | 'draining'; retryAfterSeconds: number };

/** What `/ready` and `/metrics` say of it. */
export interface CapacityView {
  active: number;
  capacity: number;
  admitting: boolean;
  strains: string[];
}

/**
 * The instance's conversations at once (docs/capacity.md): every media path asks here for a place
 * before it answers (an inbound INVITE, a room's offer, a persona call) or dials (an outbound call),
 * and gives it back when the call is over. A place is refused over MAX_CONVERSATIONS or while the
 * headroom measured each second (the event loop's delay, the media clocks' lateness, the
 * recogniser's backlog; admission.ts) is short. Outbound calls wait in line: a call that asked
 * first is let through first.
 */
@Injectable()
export class ConversationCapacity implements OnApplicationShutdown {
  private readonly logger = new Logger('Capacity');
  readonly limits: AdmissionLimits;
  /** CAPACITY_HEADROOM=measured: the windows' figures close admission too; off: MAX_CONVERSATIONS only. */
  private readonly measured: boolean;
  private readonly drainTimeoutMs: number;
  /** Set once the instance is stopping: nothing new is admitted, and `idle` is told when the last ends. */
  private draining = false;
  private idle: (() => void) | null = null;
  private state: AdmissionState = OPEN;
  private active = 0;
  private readonly loopDelay: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  /** Outbound calls waiting for a place, in the order they first asked, with when they last asked. */
  private readonly line = new Map<string, number>();
  private readonly registry = new Registry();
  private readonly refusals: Counter<'kind' | 'reason'>;
  private last: Headroom = { loopDelayP99Ms: 0, frameLatenessP99Ms: 0, recognizerOldestMs: 0 };

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(SPEECH_RECOGNIZER) private readonly recognizer: SpeechRecognizer | null = null,
    @Optional() @Inject(RuntimeMetrics) metrics: RuntimeMetrics | null = null,
    @Optional() @Inject(ReadinessDetails) readiness: ReadinessDetails | null = null,
    @Optional() @Inject(Drains) drains: Drains | null = null,
  ) {
    const settings = settingsOf(config, conversationsSettings);
    const perCore = settings.stt ? PER_CORE_HOSTED : PER_CORE_EMBEDDED;
    this.limits = {
      ...DEFAULT_LIMITS,
      maxConversations: settings.maxConversations ?? availableParallelism() * perCore,
    };
    this.measured = settings.capacityHeadroom === 'measured';
    this.drainTimeoutMs = settings.drainTimeoutMs;
    this.loopDelay = monitorEventLoopDelay({ resolution: 10 });
    this.loopDelay.enable();
    this.timer = setInterval(() => this.measure(), WINDOW_MS);
    this.timer.unref();
    this.refusals = new Counter({
      name: 'conversations_refused_total',
      help: 'Conversations refused or held at this instance, by kind and reason (max_conversations, headroom).',
      labelNames: ['kind', 'reason'],
      registers: [this.registry],
    });
    const gauge = (name: string, help: string, value: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(value());
        },
      });
    gauge('conversations_active', 'Conversations this instance carries now.', () => this.active);
    gauge(
      'conversations_capacity',
      'The most it carries at once (MAX_CONVERSATIONS).',
      () => this.limits.maxConversations,
    );
    gauge(
      'conversations_admitting',
      '1 while it takes a new conversation, 0 while it does not (full, headroom short, or draining).',
      () => (this.decide().admit ? 1 : 0),
    );
    gauge(
      'event_loop_delay_p99_ms',
      'The event loop delay, 99th percentile over the last second.',
      () => this.last.loopDelayP99Ms,
    );
    gauge(
      'media_frame_lateness_p99_ms',
      'How late the 20 ms media ticks ran, 99th percentile over the last second.',
      () => this.last.frameLatenessP99Ms,
    );
    gauge(
      'recognizer_wait_ms',
      'How long the oldest finished utterance has waited for its words.',
      () => this.last.recognizerOldestMs,
    );
    metrics?.contribute(this.registry);
    drains?.register('conversations', () => this.drain());
    readiness?.contribute('conversations', () => {
      const { active, capacity, admitting } = this.view();
      return { active, capacity, admitting };
    });
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.loopDelay.disable();
  }

  /** A place for an inbound call, a room or a persona call, now or never (the caller is told to retry). */
  request(kind: Exclude<ConversationKind, 'phone_outbound'>): SlotRequest {
    return this.take(kind, this.decide());
  }

  /**
   * A place for an outbound call: in line behind the calls that asked first and still ask. Refused,
   * the call asks again later, keeping its place in the line.
   */
  requestInLine(key: string): SlotRequest {
    const now = performance.now();
    for (const [waiter, askedAt] of this.line) if (now - askedAt > WAITER_GONE_MS) this.line.delete(waiter);
    const ahead = [...this.line.keys()].indexOf(key);
    const decision = this.decide();
    // Behind others still waiting (a newcomer behind every one of them): it waits too, even with a
    // place free (theirs to take first).
    const first = ahead === 0 || (ahead === -1 && this.line.size === 0);
    if (decision.admit && first) {
      this.line.delete(key);
      return this.take('phone_outbound', decision);
    }
    this.line.set(key, now);
    return this.take('phone_outbound', decision.admit ? { admit: false, reason: 'max_conversations' } : decision);
  }

  /**
   * The instance is stopping: it admits nothing more, and this resolves once the conversations it
   * carries have ended, or DRAIN_TIMEOUT has passed (those still going then end with the shutdown).
   */
  async drain(): Promise<void> {
    this.draining = true;
    if (this.active === 0 || this.drainTimeoutMs === 0) return;
    this.logger.log(`draining: waiting up to ${this.drainTimeoutMs / 1000} s for ${this.active} conversations to end`);
    const ended = new Promise<boolean>((resolve) => (this.idle = () => resolve(true)));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.drainTimeoutMs)));
    const allEnded = await Promise.race([ended, timedOut]);
    clearTimeout(timer);
    this.logger.log(
      allEnded ? 'drained: every conversation has ended' : `drain timed out with ${this.active} conversations going`,
    );
  }

  private decide(): Admission {
    if (this.draining) return { admit: false, reason: 'draining' };
    return admits(this.state, this.active, this.limits);
  }

  view(): CapacityView {
    return {
      active: this.active,
      capacity: this.limits.maxConversations,
      // What the next request would be told (an instance that carries nothing admits, strained or not).
      admitting: this.decide().admit,
      strains: [...this.state.strains],
    };
  }

  private take(kind: ConversationKind, decision: Admission): SlotRequest {
    if (!decision.admit) {
      this.refusals.inc({ kind, reason: decision.reason });
      return { slot: null, reason: decision.reason, retryAfterSeconds: CAPACITY_RETRY_AFTER_SECONDS };
    }
    this.active++;
    let held = true;
    return {
      slot: {
        release: () => {
          if (!held) return;
          held = false;
          this.active--;
          if (this.active === 0) this.idle?.();
        },
      },
    };
  }

  /** Closes the window: its figures decide whether the next ones admit. */
  private measure(): void {
    const lateness = mediaClockLateness.take();
    const headroom: Headroom = {
      loopDelayP99Ms: this.loopDelay.count > 0 ? this.loopDelay.percentile(99) / 1e6 : 0,
      frameLatenessP99Ms: lateness.p99Ms,
      recognizerOldestMs: this.recognizer?.backlog?.().oldestMs ?? 0,
    };
    this.loopDelay.reset();
    this.last = headroom;
    if (!this.measured) return;
    const before = this.state.closedFor > 0;
    this.state = afterWindow(this.state, headroom, this.limits);
    const after = this.state.closedFor > 0;
    if (before !== after)
      this.logger.log(
        after
          ? `headroom short (${this.state.strains.join(', ')}; ${this.active} conversations): new ones are refused`
          : `headroom back (${this.active} conversations): new ones are taken again`,
      );
  }
}
