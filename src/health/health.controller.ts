import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/config';
import { EVENT_STORE, EventStore, START } from '../event-store/event-store.port';
import { PG_POOL } from '../infra/database/database.tokens';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
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
    const database = await check(() => this.pool.query('SELECT 1'));
    const eventStore = await check(() => this.store.readAll(START, 1));
    const lag = await check(() => this.pool.query('SELECT name FROM projection_checkpoints'));
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
