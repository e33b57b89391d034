import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiDoc, shape } from '../kernel/http/api-docs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { ProjectionCheckpointEntity } from '../runtime/processing/projection-checkpoint.entity';
import { ReadinessDetails } from '../runtime/observability/readiness-details';
import { Drains } from '../runtime/workers/drains';

const STATUS = { type: 'string', enum: ['ok', 'error'] };
const READINESS = shape('Readiness', {
  status: {
    type: 'string',
    enum: ['ok', 'degraded', 'draining'],
    description: '`draining` (with 503): the instance is stopping for a deploy and takes no new work.',
  },
  checks: shape('ReadinessChecks', {
    database: shape('DatabaseCheck', { status: STATUS, kind: { type: 'string', enum: ['external', 'embedded'] } }),
    event_store: shape('EventStoreCheck', {
      status: STATUS,
      kind: { type: 'string', enum: ['kurrentdb', 'postgresql'] },
    }),
    projections: shape('ProjectionsCheck', { status: STATUS }),
  }),
  conversations: shape('ConversationsCapacity', {
    active: { type: 'integer', description: 'Conversations this instance carries now.' },
    capacity: { type: 'integer', description: 'The most it carries at once (MAX_CONVERSATIONS).' },
    admitting: {
      type: 'boolean',
      description:
        'Whether it takes new conversations now: false at capacity or while its measured headroom is short (docs/capacity.md). Not a failed check: the API is ready all the same.',
    },
  }),
});
const READY_EXAMPLE = {
  status: 'ok',
  checks: {
    database: { status: 'ok', kind: 'embedded' },
    event_store: { status: 'ok', kind: 'postgresql' },
    projections: { status: 'ok' },
  },
  conversations: { active: 3, capacity: 8, admitting: true },
};

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly details: ReadinessDetails,
    private readonly drains: Drains,
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
    description:
      'Each dependency’s state (database, event store, projections), 503 when one is down; and the conversations this instance carries against its capacity.',
    body: READINESS,
    returns: 'Every dependency is reachable.',
    example: READY_EXAMPLE,
    errors: [],
  })
  @ApiResponse({
    status: 503,
    description: 'A dependency is down (the body says which), or the instance is draining.',
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
    const draining = this.drains.draining;
    void reply.status(ok && !draining ? 200 : 503);
    return {
      status: draining ? 'draining' : ok ? 'ok' : 'degraded',
      checks: {
        database: { status: database, kind: this.config.databaseUrl ? 'external' : 'embedded' },
        event_store: { status: eventStore, kind: this.config.eventStoreUrl ? 'kurrentdb' : 'postgresql' },
        projections: { status: lag },
      },
      ...this.details.collect(),
    };
  }
}
