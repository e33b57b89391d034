import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiDoc, shape } from '../kernel/http/api-docs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { ProjectionCheckpointEntity } from '../runtime/processing/projection-checkpoint.entity';

const STATUS = { type: 'string', enum: ['ok', 'error'] };
const READINESS = shape('Readiness', {
  status: { type: 'string', enum: ['ok', 'degraded'] },
  checks: shape('ReadinessChecks', {
    database: shape('DatabaseCheck', { status: STATUS, kind: { type: 'string', enum: ['external', 'embedded'] } }),
    event_store: shape('EventStoreCheck', {
      status: STATUS,
      kind: { type: 'string', enum: ['kurrentdb', 'postgresql'] },
    }),
    projections: shape('ProjectionsCheck', { status: STATUS }),
  }),
});
const READY_EXAMPLE = {
  status: 'ok',
  checks: {
    database: { status: 'ok', kind: 'embedded' },
    event_store: { status: 'ok', kind: 'postgresql' },
    projections: { status: 'ok' },
  },
};

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
  @ApiDoc({
    id: 'health',
    summary: 'Liveness',
    description: 'Answers 200 once the service accepts requests; it checks nothing else.',
    body: shape('Liveness', { status: { type: 'string', const: 'ok' } }),
    returns: 'The service is up.',
    example: { status: 'ok' },
    errors: [],
  })
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: each dependency's state; 503 when one is down. */
  @Get('ready')
  @ApiDoc({
    id: 'ready',
    summary: 'Readiness',
    description: 'Each dependency’s state (database, event store, projections); 503 when one is down.',
    body: READINESS,
    returns: 'Every dependency is reachable.',
    example: READY_EXAMPLE,
    errors: [],
  })
  @ApiResponse({
    status: 503,
    description: 'A dependency is down; the body says which.',
    content: { 'application/json': { schema: READINESS } },
  })
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
