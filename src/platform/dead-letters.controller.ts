import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { ApiDoc, named, OperatorApi, pageOf } from '../kernel/http/api-docs';
import { integer, nullable, object, oneOf, text, timestamp, type FieldsOf } from '../catalog/payload-schema';
import { pageLimit } from '../kernel/http/page-limit';
import { ApiError } from '../kernel/http/api-error';
import { DEAD_LETTER_STATUSES, DeadLetterEntity, DeadLetterStatus } from '../runtime/processing/dead-letter.entity';
import { DeadLettersService } from '../runtime/processing/dead-letters.service';
import { AdminGuard } from '../infra/http/admin.guard';

/** Checked by the compiler against what `presentDeadLetter` returns (no dead letter is made by the contract walk). */
const deadLetterFields: FieldsOf<ReturnType<typeof presentDeadLetter>> = {
  id: text(),
  processor: text('The projection or reactor that could not apply the event.'),
  status: oneOf(DEAD_LETTER_STATUSES),
  event_id: text(),
  event_type: text(),
  stream_id: text(),
  stream_position: integer('The event’s position in its stream.'),
  position: object<{ commit: string; prepare: string }>(
    { commit: text(), prepare: text() },
    'The event’s position in the store (64-bit integers, as text).',
  ),
  tenant_id: nullable(text()),
  error: text(),
  attempts: integer(),
  first_failed_at: timestamp(),
  last_failed_at: timestamp(),
  retried_at: nullable(timestamp()),
  created_at: timestamp(),
};
const DEAD_LETTER = named('DeadLetter', object(deadLetterFields).schema);
const DEAD_LETTER_EXAMPLE = {
  id: 'dl_01jf8w2c4v6b8n0m2q4w',
  processor: 'sessions',
  status: 'dead',
  event_id: '0193a1f2-7c3e-7a10-8b2c-1d2e3f405162',
  event_type: 'session.ended',
  stream_id: 'session-ses_01jf8w2c4v6b8n0m2q4w',
  stream_position: 4,
  position: { commit: '1204', prepare: '1204' },
  tenant_id: 'ten_01jf8w2c4v6b8n0m2q4w',
  error: 'relation "sessions" does not exist',
  attempts: 5,
  first_failed_at: '2026-11-21T10:00:00.000Z',
  last_failed_at: '2026-11-21T10:05:00.000Z',
  retried_at: null,
  created_at: '2026-11-21T10:00:00.000Z',
};

/**
 * Dead letters of the event-processing runtime
 * (docs/decisions/0023-a-poison-event-is-set-aside-as-a-dead-letter-after-n-tries.md), on the
 * operator API: the runtime owns them (src/runtime/processing/dead-letters.service.ts); this is
 * their HTTP edge, in the platform module (src/platform/platform.module.ts).
 */
@OperatorApi('operator')
@UseGuards(AdminGuard)
@Controller('admin/v1/dead_letters')
export class DeadLettersController {
  constructor(private readonly deadLetters: DeadLettersService) {}

  @Get()
  @ApiQuery({ name: 'processor', required: false, description: 'Only this processor’s dead letters.' })
  @ApiQuery({ name: 'status', required: false, enum: DEAD_LETTER_STATUSES })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A dead letter id: the page after it' })
  @ApiDoc({
    id: 'listDeadLetters',
    summary: 'List dead letters',
    description: 'Events a processor could not apply after its retries, newest first.',
    body: pageOf('DeadLetterPage', DEAD_LETTER),
    returns: 'A page of dead letters.',
    example: { data: [DEAD_LETTER_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  async list(
    @Query('processor') processor?: string,
    @Query('status') status?: string,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    if (processor !== undefined && (typeof processor !== 'string' || processor.length === 0 || processor.length > 200))
      throw ApiError.invalid('processor must be a processor name (1 to 200 characters).', 'processor');
    if (status !== undefined && !(DEAD_LETTER_STATUSES as readonly string[]).includes(status))
      throw ApiError.invalid(`status must be one of ${DEAD_LETTER_STATUSES.join(', ')}.`, 'status');
    const limit = pageLimit(limitText);
    if (startingAfter !== undefined && typeof startingAfter !== 'string')
      throw ApiError.notFound('dead letter', 'starting_after');
    const page = await this.deadLetters.list({
      ...(processor !== undefined ? { processor } : {}),
      ...(status !== undefined ? { status: status as DeadLetterStatus } : {}),
      ...(startingAfter !== undefined ? { startingAfter } : {}),
      limit,
    });
    if (!page) throw ApiError.notFound('dead letter', 'starting_after');
    return { data: page.data.map(presentDeadLetter), has_more: page.hasMore };
  }

  @Get(':id')
  @ApiDoc({
    id: 'getDeadLetter',
    summary: 'Get a dead letter',
    description: 'One dead letter: the event, the processor and the last error.',
    body: DEAD_LETTER,
    returns: 'The dead letter.',
    example: DEAD_LETTER_EXAMPLE,
    errors: [404],
  })
  async get(@Param('id') id: string) {
    const letter = await this.deadLetters.get(id);
    if (!letter) throw ApiError.notFound('dead letter');
    return presentDeadLetter(letter);
  }

  /** Replays the event through its processor now: 202 with the dead letter, now `retried`. */
  @Post(':id/retry')
  @ApiDoc({
    id: 'retryDeadLetter',
    summary: 'Retry a dead letter',
    description:
      'Replays the event through its processor now; a processor that still fails is a 422 and the dead letter is kept.',
    status: 202,
    body: DEAD_LETTER,
    returns: 'The dead letter, retried.',
    example: { ...DEAD_LETTER_EXAMPLE, status: 'retried', retried_at: '2026-11-21T11:00:00.000Z' },
    errors: [404, 409, 422],
  })
  @HttpCode(202)
  async retry(@Param('id') id: string) {
    const result = await this.deadLetters.retry(id);
    switch (result.outcome) {
      case 'retried':
        return presentDeadLetter(result.letter);
      case 'not_found':
        throw ApiError.notFound('dead letter');
      case 'conflict':
        throw new ApiError(409, 'conflict', result.reason);
      case 'failed':
        throw new ApiError(
          422,
          'unprocessable',
          `The processor ${result.letter.processor} still cannot apply event ${result.letter.eventId}; ` +
            `the dead letter is kept (${result.letter.attempts} tries): ${result.error}`,
        );
      default: {
        const unreachable: never = result;
        return unreachable;
      }
    }
  }
}

function presentDeadLetter(d: DeadLetterEntity) {
  return {
    id: d.id,
    processor: d.processor,
    status: d.status,
    event_id: d.eventId,
    event_type: d.eventType,
    stream_id: d.streamId,
    stream_position: d.streamPosition,
    position: { commit: d.commitPosition, prepare: d.preparePosition },
    tenant_id: d.tenantId,
    error: d.error,
    attempts: d.attempts,
    first_failed_at: d.firstFailedAt.toISOString(),
    last_failed_at: d.lastFailedAt.toISOString(),
    retried_at: d.retriedAt ? d.retriedAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
  };
}
