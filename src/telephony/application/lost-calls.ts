import type { Logger } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../kernel/result';
import { sessionSignals } from '../../sessions';
import type { LostCall } from './media-watchdog';

/**
 * A call of a dead media process (the watchdog found its lease lapsed) ends `failed` with
 * `media_lost`, through sessions' signal writer: its end is the session's hang-up phase, so a call
 * that had ended already is not ended twice.
 */
export async function endLostCall(commands: CommandBus, call: LostCall, logger: Logger): Promise<void> {
  logger.warn(`call ${call.sessionId} lost its media process ${call.holder}: ending it as media_lost`);
  try {
    await sessionSignals(commands, call.tenantId, call.sessionId, { tries: 1 }).hungUp({
      status: 'failed',
      end_reason: 'media_lost',
    });
  } catch (error) {
    // A session that refuses the hangup (none by that id) can never take it: its slot is freed all the
    // same, or it would come back at every sweep. Anything else (the database) is retried next sweep.
    if (!(error instanceof DomainError)) throw error;
    logger.warn(`call ${call.sessionId}: the session refused media_lost (${error.message}); its slot is freed`);
  }
}
