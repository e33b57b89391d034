import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, settingsOf } from '../../config/config';
import { voicesSettings } from '../voices.config';
import { CLOCK, Clock } from '../../kernel/clock';
import { DomainError } from '../../kernel/result';
import { defineReactor, type Processor } from '../../runtime/processing/processor';
import {
  defineTimerKind,
  TimersService,
  type DueTimer,
  type ScheduleTimer,
  type TimerOutcome,
} from '../../runtime/timers/timers.service';
import { GetTenant } from '../../tenants';
import {
  decodeBudget,
  decodeFailed,
  decodeTimedOut,
  judgeBeforeMeasuring,
  judgeMeasured,
  type LengthBounds,
  tooLong,
} from '../domain/sample-rules';
import {
  nextUnmeasured,
  type VoiceClone,
  type VoiceCloneEvent,
  voiceCloneEdge,
  voiceCloneStream,
} from '../domain/voice-clone.decider';
import { VOICE_TRAINER, type VoiceTrainer } from '../domain/voice-trainer';
import type { AudioMeasurement } from '../infra/audio-decoder';
import { DECODE_POOL, DecodePool, DecodeQueueFull, DecodeTimeout, DecodeWorkerFailed } from '../infra/decode-pool';
import { SAMPLE_STORE, type SampleStore } from '../infra/sample-store';
import { ChangeVoiceClone } from './voice-clone.commands';

interface VoicePayload {
  tenant_id: string;
  voice_id: string;
}

/** The voices context's timer kinds, each with its payload type (timer-kind.ts). */
export const VOICE_TIMER = {
  train: defineTimerKind<VoicePayload>('voice_clone.train', { tenant_id: true, voice_id: true }),
  removeSamples: defineTimerKind<VoicePayload>('voice_clone.remove_samples', { tenant_id: true, voice_id: true }),
};

type ReactsTo = Extract<VoiceCloneEvent, { type: 'voice_clone.uploaded' | 'voice_clone.deleted' }>;

/**
 * Schedules, in the transaction of its checkpoint, the training job of each uploaded voice and the
 * removal of a deleted voice's samples: one timer each, whatever replays.
 */
export function voicesReactor(timers: TimersService): Processor {
  let scheduled = false;
  return defineReactor<ReactsTo>({
    name: 'voices_reactor',
    edge: voiceCloneEdge.only('voice_clone.uploaded', 'voice_clone.deleted'),
    stream: voiceCloneStream,
    afterCommit: () => {
      if (scheduled) timers.poke();
      scheduled = false;
    },
    async applyBatch(tx, events) {
      const due: ScheduleTimer[] = [];
      for (const event of events) {
        const tenantId = event.metadata.tenant_id;
        if (!tenantId) continue;
        const payload: VoicePayload = { tenant_id: tenantId, voice_id: event.data.voice_id };
        const kind = event.type === 'voice_clone.uploaded' ? VOICE_TIMER.train : VOICE_TIMER.removeSamples;
        due.push(
          kind.at({
            dueAt: new Date(event.metadata.created_at),
            payload,
            dedupeKey: `${kind.name}:${event.data.voice_id}`,
          }),
        );
      }
      scheduled = due.length > 0;
      await timers.scheduleMany(due, tx);
    },
  });
}

/** A decoding worker that dies on the same sample in this many runs in a row fails the training. */
const WORKER_DEATHS_FAILING = 3;
/** When the decoding queue is full, the step runs again this much later (plus up to as much again). */
const QUEUE_FULL_RETRY_MS = 1_000;

/**
 * The training job, a durable timer per voice. Each run does one step and records it in the voice's
 * stream, then asks to run again at once: start (voice_clone.training_started), the plan and the
 * number of samples, one sample decoded and measured (duration, RMS, spectrum) in a decoding worker
 * thread (never on the event loop), and once all are measured the judgement and the trainer (the
 * port). A sample is decoded only up to the length bounds (a longer one fails the training at once)
 * and within VOICE_DECODE_TIMEOUT. A crash resumes at the step after the last one recorded; a step
 * repeated records nothing twice.
 */
@Injectable()
export class VoiceTraining {
  private readonly logger = new Logger('VoiceTraining');

  constructor(
    private readonly timers: TimersService,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(VOICE_TRAINER) private readonly trainer: VoiceTrainer,
    @Inject(SAMPLE_STORE) private readonly store: SampleStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DECODE_POOL) private readonly decoding: DecodePool,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const { sampleMaxMs, totalMaxMs } = settingsOf(config, voicesSettings);
    this.bounds = { sampleMaxMs, totalMaxMs };
  }

  private readonly bounds: LengthBounds;

  register(): void {
    this.timers.register(VOICE_TIMER.train, (t) => this.train(t));
    this.timers.register(VOICE_TIMER.removeSamples, (t) => this.removeSamples(t));
  }

  private change(p: VoicePayload, change: ChangeVoiceClone['change']) {
    return this.commands.execute(new ChangeVoiceClone(p.tenant_id, p.voice_id, change));
  }

  private async train(timer: DueTimer<VoicePayload>): Promise<TimerOutcome<VoicePayload>> {
    const p = timer.payload;
    const again = { next: { dueAt: this.clock.now(), payload: timer.payload } };
    let state;
    try {
      state = await this.change(p, { type: 'start_training' });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') return; // deleted: nothing to train
      throw err;
    }
    if (state.status !== 'training') return;
    const voice: VoiceClone = state;
    const tenant = await this.queries.execute(new GetTenant(p.tenant_id));
    const early = judgeBeforeMeasuring({ plan: tenant?.plan ?? 'pro', sampleCount: voice.samples.length });
    if (early) {
      await this.change(p, { type: 'fail', ...early });
      return;
    }
    const index = nextUnmeasured(voice);
    if (index !== -1) {
      const sample = voice.samples[index];
      if (!sample) return;
      const ref = { index, filename: sample.filename };
      const measuredMs = voice.measurements.reduce((sum, m) => sum + (m?.duration_ms ?? 0), 0);
      const budget = decodeBudget(this.bounds, measuredMs);
      let result: AudioMeasurement;
      try {
        // The decoder reads a file: a local copy of the sample from the blob store, removed afterwards.
        result = await this.store.withLocalCopy(sample.path, (path) =>
          this.decoding.measure(path, sample.format, budget.maxMs, p.tenant_id),
        );
      } catch (err) {
        if (err instanceof DecodeQueueFull) {
          const wait = QUEUE_FULL_RETRY_MS * (1 + Math.random());
          return { next: { dueAt: new Date(this.clock.now().getTime() + wait), payload: timer.payload } };
        }
        if (err instanceof DecodeTimeout) {
          await this.change(p, { type: 'fail', ...decodeTimedOut(ref, err.timeoutMs) });
          return;
        }
        if (err instanceof DecodeWorkerFailed && timer.attempts >= WORKER_DEATHS_FAILING /* this run counted */) {
          this.logger.warn(`voice ${voice.voiceId} sample ${index}: ${err.message}; training fails`);
          await this.change(p, { type: 'fail', ...decodeFailed(ref) });
          return;
        }
        throw err; // a file missing here, a worker that died: the timer retries with back-off
      }
      if (result.kind === 'too_long') {
        await this.change(p, { type: 'fail', ...tooLong(ref, budget.bound, this.bounds) });
        return;
      }
      if (result.stoppedEarly)
        this.logger.warn(`voice ${voice.voiceId} sample ${index}: decoding stopped early (${result.stoppedEarly})`);
      await this.change(p, { type: 'record_measurement', index, measurement: result.measurement });
      return again;
    }
    const judged = judgeMeasured(
      voice.samples.map((s, i) => ({
        index: i,
        filename: s.filename,
        duration_ms: voice.measurements[i]?.duration_ms ?? 0,
        rms_dbfs: voice.measurements[i]?.rms_dbfs ?? -120,
      })),
    );
    if (judged) {
      await this.change(p, { type: 'fail', ...judged });
      return;
    }
    const outcome = await this.trainer.train({
      tenantId: p.tenant_id,
      voiceId: voice.voiceId,
      name: voice.name,
      samples: voice.samples.map((s, i) => {
        const measurement = voice.measurements[i];
        if (!measurement) throw new Error(`sample ${i} of ${voice.voiceId} is not measured`);
        return { index: i, open: () => this.store.open(s.path), format: s.format, sha256: s.sha256, measurement };
      }),
    });
    switch (outcome.kind) {
      case 'pending':
        return { next: { dueAt: new Date(this.clock.now().getTime() + outcome.retryAfterMs), payload: timer.payload } };
      case 'failed':
        await this.change(p, { type: 'fail', error_code: outcome.error_code, error_message: outcome.error_message });
        return;
      case 'ready':
        await this.change(p, { type: 'succeed', model: outcome.model });
        return;
      default: {
        const unreachable: never = outcome;
        return unreachable;
      }
    }
  }

  private async removeSamples(timer: DueTimer<VoicePayload>): Promise<void> {
    await this.store.removeVoice(timer.payload.voice_id);
  }
}
