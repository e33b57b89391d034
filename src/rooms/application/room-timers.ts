import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { TimersService, type DueTimer } from '../../runtime/timers/timers.service';
import { OpenRoomSessionCommand, sessionSignals } from '../../sessions';
import { EndReason, roomDecider, roomStream } from '../domain/room.decider';
import { RoomAction } from './room.commands';
import { ROOM_TIMER, type RoomTimerPayload } from './room-reactor.processor';

/** The session's end_reason for each way a room's call ends. */
const SESSION_END_REASON: Record<EndReason, string> = {
  hangup: 'completed',
  connection_lost: 'connection_lost',
  max_duration: 'max_duration',
};

/** The work behind the room timers scheduled by the room reactor; each handler is safe to run twice. */
@Injectable()
export class RoomTimers {
  constructor(
    private readonly timers: TimersService,
    private readonly commands: CommandBus,
    private readonly executor: CommandExecutor,
  ) {}

  register(): void {
    this.timers.register(ROOM_TIMER.expire, (t) => this.action(t, { type: 'expire' }));
    this.timers.register(ROOM_TIMER.setup, (t) =>
      this.action(t, {
        type: 'fail',
        errorCode: 'agent_unreachable',
        errorMessage: 'The agent did not answer while the room was set up (test scenario agent_unreachable).',
      }),
    );
    this.timers.register(ROOM_TIMER.session, (t) => this.syncSession(t));
  }

  private async action(timer: DueTimer<RoomTimerPayload>, action: RoomAction['action']): Promise<void> {
    const { tenant_id, room_id } = timer.payload;
    await this.commands.execute(new RoomAction(tenant_id, room_id, action));
  }

  /**
   * Brings the room's session up to the room: opened once joined (created and started as of the
   * join), ended once completed (session.ended as of the completion, with the room's duration) or
   * once the joined call broke (session.ended as failed, as of the failure),
   * recorded once the recording is written. Each step is idempotent and the earlier ones are
   * repeated first, so the session's events keep their order whichever timer runs first.
   */
  private async syncSession(timer: DueTimer<RoomTimerPayload>): Promise<void> {
    const { tenant_id: tenantId, room_id: roomId } = timer.payload;
    const room = await this.executor.state(roomStream(roomId), roomDecider);
    if (room.status === 'none' || room.joinedAt === null) return;
    const sessionId = room.session_id;
    await this.commands.execute(
      new OpenRoomSessionCommand(tenantId, {
        sessionId,
        roomId,
        clientReferenceId: room.client_reference_id,
        agentConfig: { ...(room.agent_config ?? { prompt: '' }), voice_id: room.voice_id },
        startedAt: room.joinedAt,
      }),
    );
    const failure = room.callFailure;
    const endedAt = room.completedAt ?? failure?.at ?? null;
    if (endedAt === null) return;
    // A call that broke ends its session as failed, the room's error_code as its end_reason.
    const durationSeconds = failure
      ? Math.max(0, Math.round((Date.parse(failure.at) - Date.parse(room.joinedAt)) / 1000))
      : (room.durationSeconds ?? 0);
    // The end and the recording are the session's own phases (sessions' SessionSignalWriter): a repeated
    // sync finds them applied already.
    const signals = sessionSignals(this.commands, tenantId, sessionId, { tries: 1 }); // the timer retries
    await signals.hungUp(
      {
        status: failure ? 'failed' : 'completed',
        end_reason: failure ? failure.error_code : SESSION_END_REASON[room.endReason ?? 'hangup'],
        duration_seconds: durationSeconds,
      },
      new Date(endedAt),
    );
    if (!room.recording) return;
    await signals.recorded({
      recording_id: room.recording.recording_id,
      duration_seconds: room.recording.duration_seconds,
      channels: 'dual',
    });
  }
}
