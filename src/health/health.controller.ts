import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { ProjectionCheckpointEntity } from '../runtime/processing/projection-checkpoint.entity';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Liveness: answers once the service accepts requests. */
  @Get('health')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: each dependency's state; 503 when one is down. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const check = async (fn: () => Promise<unknown>): Promise<'ok' | 'error'> => {
      try {
        await fn();
        return 'ok';
      } catch {
        return 'error';
      }
    };
    const database = await check(() => this.db.query('SELECT 1'));
    const eventStore = await check(() => this.store.ping());
    const lag = await check(() => this.db.getRepository(ProjectionCheckpointEntity).find({ select: { name: true } }));
    const ok = database === 'ok' && eventStore === 'ok' && lag === 'ok';
    void reply.status(ok ? 200 : 503);
    return {
      status: ok ? 'ok' : 'degraded',
      checks: {
        database: { status: database, kind: this.config.databaseUrl ? 'external' : 'embedded' },
        event_store: { status: eventStore, kind: this.config.eventStoreUrl ? 'kurrentdb' : 'postgresql' },
        projections: { status: lag },
      },
    };
  }
}
