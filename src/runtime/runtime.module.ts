import {
  Logger,
  BeforeApplicationShutdown,
  DynamicModule,
  Global,
  Inject,
  Module,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { APP_CONFIG, AppConfig } from '../config/config';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store';
import { PG_POOL } from '../infra/database/database.tokens';
import { guardPoolClients, POOL_LIMITS } from '../infra/database/faults';
import { allMigrations, migrate } from '../infra/database/migrations';
import { IdempotencyKeyEntity } from '../infra/http/idempotency-key.entity';
import { CommandExecutor } from './commands/command-executor';
import { ProjectionsService } from './processing/processors.service';
import { CLOCK, Clock, systemClock } from '../kernel/clock';
import { TimersService } from './timers/timers.service';
import { joinContextEdges, type BoundedContext } from './bounded-context';
import { EVENT_CATALOG, EventCatalog } from '../catalog/event-catalog';
import { WorkerLifecycle } from './workers/lifecycle';
import { ProjectionCheckpointEntity } from './processing/projection-checkpoint.entity';
import { TimerEntity } from './timers/timer.entity';
import { DeadLetterEntity } from './processing/dead-letter.entity';
import { DeadLettersService } from './processing/dead-letters.service';
import { RuntimeMetrics } from './observability/runtime-metrics';
import { ReadinessDetails } from './observability/readiness-details';
import { Drains } from './workers/drains';
import { furthestCheckpoint, LogObserver } from './processing/log-observer';
import { assertCheckpointsOf } from './processing/processor-runner';
import { IdempotencyInterceptor } from '../infra/http/idempotency.interceptor';
import { SECRET_BOX, secretBoxProvider } from '../infra/secret-box.provider';
import { BLOB_STORE, type BlobStore } from '../infra/blobs/blob-store.port';
import { blobStoreProvider } from '../infra/blobs/blob-store.provider';
import { PostgresBlobStore } from '../infra/blobs/postgres-blob-store';

export interface RuntimeOptions {
  config: AppConfig;
  databaseUrl: string;
  clock?: Clock;
  /** false for the CLI: no projection runners or timer loop. */
  startWorkers?: boolean;
  /** The bounded contexts' static parts (migrations, catalog fragments). */
  contexts: readonly BoundedContext<unknown>[];
  /** The platform's event catalog, assembled from the contexts' fragments (app.module.ts). */
  catalog: EventCatalog;
}

export const START_WORKERS = Symbol('START_WORKERS');

/** Configuration, clock, database pool, event store and the processing machinery shared by every context. */
@Global()
@Module({})
export class RuntimeModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(START_WORKERS) private readonly startWorkers: boolean,
    private readonly lifecycle: WorkerLifecycle,
    timers: TimersService,
    private readonly observer: LogObserver,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {
    lifecycle.register(timers);
    lifecycle.register(observer);
  }

  static forRoot(options: RuntimeOptions): DynamicModule {
    // Each stored type is read by one context's edge: two that claim one fail the start here.
    joinContextEdges(options.contexts);
    return {
      module: RuntimeModule,
      imports: [
        CqrsModule.forRoot(),
        TypeOrmModule.forRoot({
          type: 'postgres',
          url: options.databaseUrl,
          // The platform's tables here, each context's through its TypeOrmModule.forFeature. The schema is
          // the migrations', run by migrate() below under a lock (TypeORM's migrationsRun takes none).
          entities: [ProjectionCheckpointEntity, TimerEntity, DeadLetterEntity, IdempotencyKeyEntity],
          autoLoadEntities: true,
          synchronize: false,
          migrations: allMigrations(options.contexts.flatMap((c) => c.migrations ?? [])),
          migrationsRun: false,
          logging: false,
          extra: { max: 30, ...POOL_LIMITS },
        }),
      ],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        { provide: START_WORKERS, useValue: options.startWorkers !== false },
        { provide: EVENT_CATALOG, useValue: options.catalog },
        {
          provide: PG_POOL,
          inject: [DataSource],
          // Migrations run here, under their lock, before any provider that uses the database is built
          // (the event store, processors and timers take this pool; requests come after bootstrap).
          useFactory: async (dataSource: DataSource): Promise<Pool> => {
            // TypeORM's PostgreSQL driver keeps its pg Pool as `master` (typed `any` by TypeORM).
            const pool: unknown = dataSource.driver instanceof PostgresDriver ? dataSource.driver.master : undefined;
            if (!(pool instanceof Pool)) throw new Error('TypeORM holds no pg Pool: the database is PostgreSQL only');
            guardPoolClients(pool);
            await migrate(dataSource);
            return pool;
          },
        },
        {
          provide: EVENT_STORE,
          inject: [PG_POOL, APP_CONFIG],
          useFactory: async (pool: Pool, config: AppConfig): Promise<EventStore> => {
            const store = config.eventStoreUrl
              ? (await import('../event-store/kurrentdb/kurrentdb-event-store.js')).KurrentDbEventStore.connect(
                  config.eventStoreUrl,
                )
              : new PostgresEventStore(pool);
            // Background failures (the wake-up feed lost, access denied) are logged, never swallowed.
            const logger = new Logger('EventStore');
            store.onError((err) => logger.error(`${store.identity} event store: ${describeError(err)}`));
            return store;
          },
        },
        {
          provide: LogObserver,
          inject: [EVENT_STORE, PG_POOL],
          useFactory: (store: EventStore, pool: Pool): LogObserver =>
            new LogObserver(store, { startFrom: () => furthestCheckpoint(pool, store.identity) }),
        },
        secretBoxProvider,
        blobStoreProvider,
        CommandExecutor,
        ProjectionsService,
        DeadLettersService,
        RuntimeMetrics,
        ReadinessDetails,
        Drains,
        TimersService,
        WorkerLifecycle,
        IdempotencyInterceptor,
      ],
      exports: [
        APP_CONFIG,
        CLOCK,
        START_WORKERS,
        EVENT_CATALOG,
        PG_POOL,
        EVENT_STORE,
        SECRET_BOX,
        BLOB_STORE,
        CqrsModule,
        CommandExecutor,
        ProjectionsService,
        DeadLettersService,
        RuntimeMetrics,
        ReadinessDetails,
        Drains,
        TimersService,
        WorkerLifecycle,
        LogObserver,
        IdempotencyInterceptor,
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.startWorkers) return;
    // Before any processor reads: checkpoints of another store's log are refused, loudly.
    await assertCheckpointsOf(this.pool, this.store.identity);
    // The observer takes its place in the log before this instance serves a request, so it sees every
    // event committed after anything a request could cache.
    await this.observer.takePosition();
    this.lifecycle.startAll();
    if (this.blobs instanceof PostgresBlobStore)
      void this.blobs
        .sweepOrphans()
        .catch((err: unknown) => new Logger('Blobs').warn(`sweeping unfinished blobs failed: ${describeError(err)}`));
  }

  /** Workers stop before any module's shutdown hook closes the database pool. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.lifecycle.stopAll();
    await this.store.close();
    await this.blobs.close();
  }
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message} (${err.cause.message})` : err.message;
}
