import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { pageLimit } from '../kernel/http/page-limit';
import { ApiError } from '../kernel/http/api-error';
import { DEAD_LETTER_STATUSES, DeadLetterEntity, DeadLetterStatus } from '../runtime/processing/dead-letter.entity';
import { DeadLettersService } from '../runtime/processing/dead-letters.service';
import { AdminGuard } from '../infra/http/admin.guard';

/**
 * Dead letters of the event-processing runtime (docs/decisions.md 23), on the operator API: the
 * runtime owns them (src/runtime/processing/dead-letters.service.ts); this is their HTTP edge, in the platform
 * module (src/platform/platform.module.ts).
 */
@ApiTags('operator')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1/dead_letters')
export class DeadLettersController {
  constructor(private readonly deadLetters: DeadLettersService) {}

  @Get()
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
  async get(@Param('id') id: string) {
    const letter = await this.deadLetters.get(id);
    if (!letter) throw ApiError.notFound('dead letter');
    return presentDeadLetter(letter);
  }

  /** Replays the event through its processor now: 202 with the dead letter, now `retried`. */
  @Post(':id/retry')
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
