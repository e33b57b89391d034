import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { Counter, Gauge, Registry } from 'prom-client';
import { PG_POOL } from '../../infra/database/database.tokens';

/**
 * Prometheus metrics of the event-processing runtime, served at /metrics beside the registries the
 * contexts contribute (the webhook deliveries'): failed tries of events, events set aside as dead letters, and the dead letters still
 * open (status `dead`) in the database, by processor. An alert on `processor_dead_letters_open > 0`
 * tells the operator that a read model or reactor skipped an event.
 */
@Injectable()
export class RuntimeMetrics {
  readonly registry = new Registry();
  private readonly processors = new Set<string>();
  private readonly failures: Counter<'processor'>;
  private readonly deadLettered: Counter<'processor'>;
  private readonly commandCacheOutcomes: Counter<'outcome'>;
  /** The contexts' own registries (webhook deliveries), served with the runtime's. */
  private readonly contributed: Registry[] = [];

  constructor(@Inject(PG_POOL) pool: Pool) {
    const processors = this.processors;
    this.failures = new Counter({
      name: 'processor_event_failures_total',
      help: 'Tries of one event that a processor could not apply (transient database failures excluded).',
      labelNames: ['processor'],
      registers: [this.registry],
    });
    this.deadLettered = new Counter({
      name: 'processor_dead_letters_total',
      help: 'Events this instance set aside as dead letters after PROCESSOR_MAX_ATTEMPTS tries.',
      labelNames: ['processor'],
      registers: [this.registry],
    });
    this.commandCacheOutcomes = new Counter({
      name: 'command_stream_cache_total',
      help:
        'Stream loads of the command executor: read (from the store), cached and guessed (appended on a cached ' +
        'state, or on a stream guessed new, without a read), stale (an unconfirmed state refused by the expected ' +
        'version, then read), confirmed (a no-op or refusal on an unconfirmed state, decided again on a read).',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'processor_dead_letters_open',
      help: 'Dead letters not yet retried successfully (status dead), by processor, across all instances.',
      labelNames: ['processor'],
      registers: [this.registry],
      async collect() {
        const { rows } = await pool.query<{ processor: string; n: string }>(
          `SELECT processor, count(*) AS n FROM dead_letters WHERE status = 'dead' GROUP BY processor`,
        );
        this.reset();
        for (const name of processors) this.set({ processor: name }, 0);
        for (const r of rows) this.set({ processor: r.processor }, Number(r.n));
      },
    });
  }

  /** A context's metrics, served at /metrics (src/platform/metrics.controller.ts) with the runtime's. */
  contribute(registry: Registry): void {
    if (!this.contributed.includes(registry)) this.contributed.push(registry);
  }

  /** The Prometheus text of every contributed registry, then the runtime's own. */
  text(): Promise<string> {
    return Registry.merge([...this.contributed, this.registry]).metrics();
  }

  /** Every processor gets its series at 0 from the start, so that a rate or an alert sees a change. */
  registered(processor: string): void {
    this.processors.add(processor);
    this.failures.inc({ processor }, 0);
    this.deadLettered.inc({ processor }, 0);
  }

  eventFailed(processor: string): void {
    this.failures.inc({ processor });
  }

  eventDeadLettered(processor: string): void {
    this.deadLettered.inc({ processor });
  }

  commandCache(outcome: 'read' | 'cached' | 'guessed' | 'stale' | 'confirmed'): void {
    this.commandCacheOutcomes.inc({ outcome });
  }
}
