import { Logger } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import type { CallSink } from '../../conversations';
import { errorMessage } from '../../kernel/errors';
import { OpenRoomSessionCommand } from '../../sessions';
import type { EndReason, Room } from '../domain/room.decider';
import { RoomAction } from './room.commands';

/** How a joined call breaks: its media (a socket of the agent's peer) or its recording (a file write). */
export type CallBreak = 'media_error' | 'recording_failed';

/** How a room's hosted call ends: completed (`reason`: a no-op when the room is completed already), or broken. */
export type RoomCallEnd =
  /** Completed with `reason` (as of `at`, or now); none: the room is completed already (a WHIP hang-up, another instance). */
  { reason?: EndReason; at?: Date } | { broke: CallBreak; message: string };

const logger = new Logger('Rooms');

/**
 * What a room's call, carried by conversations' CallHost, reports: a room's call is told to the room,
 * and the room tells its session (room-timers.ts). Answered: the room's session is opened (the room
 * reactor's sync opens it again, a no-op), so that the conversation's turns have a session to go to;
 * as the end begins: the room completes (or fails, for a call that broke); recorded: room.recorded.
 */
export function roomCallSink(
  commands: Pick<CommandBus, 'execute'>,
  tenantId: string,
  room: Room,
  startedAt: Date,
): CallSink<RoomCallEnd> {
  const roomId = room.room_id;
  return {
    answered: async () => {
      await commands.execute(
        new OpenRoomSessionCommand(tenantId, {
          sessionId: room.session_id,
          roomId,
          clientReferenceId: room.client_reference_id,
          agentConfig: { ...(room.agent_config ?? { prompt: '' }), voice_id: room.voice_id },
          startedAt: startedAt.toISOString(),
        }),
      );
    },
    // The room's final state is recorded as the end begins (as of then), before the call is taken down.
    ending: async (ending) => {
      if ('broke' in ending) return failRoom(commands, tenantId, roomId, ending.broke, ending.message);
      if (ending.reason)
        await commands.execute(
          new RoomAction(tenantId, roomId, { type: 'complete', reason: ending.reason, at: ending.at }),
        );
    },
    ended: () => Promise.resolve(),
    recorded: async ({ recordingId, seconds }) => {
      await commands.execute(
        new RoomAction(tenantId, roomId, { type: 'record', recordingId, durationSeconds: Math.round(seconds) }),
      );
    },
  };
}

/** The room fails with `code`: its joined call broke, or (not joined yet) its setup failed. Logged, never thrown. */
export async function failRoom(
  commands: Pick<CommandBus, 'execute'>,
  tenantId: string,
  roomId: string,
  code: CallBreak,
  message: string,
): Promise<void> {
  try {
    const { applied } = await commands.execute(
      new RoomAction(tenantId, roomId, { type: 'fail_call', errorCode: code, errorMessage: message }),
    );
    // Not joined yet: the setup fails instead (the join sees a room that cannot be set up).
    if (!applied)
      await commands.execute(
        new RoomAction(tenantId, roomId, { type: 'fail', errorCode: code, errorMessage: message }),
      );
  } catch (err) {
    logger.error(`room ${roomId}: failing the room failed: ${errorMessage(err)}`);
  }
}
