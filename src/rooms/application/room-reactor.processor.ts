import { defineReactor, type Handled, type Processor } from '../../runtime/processing/processor';
import { defineTimerKind, type ScheduleTimer, type TimersService } from '../../runtime/timers/timers.service';
import { type RoomEvent, roomEdge, roomStream } from '../domain/room.decider';

type ReactsTo = Extract<
  RoomEvent,
  {
    type:
      | 'room.defined'
      | 'room.created'
      | 'room.joined'
      | 'room.call_failed'
      | 'room.completed'
      | 'room.recorded'
      | 'room.expired'
      | 'room.failed';
  }
>;

/** A participant whose audio has not arrived for this long has lost the connection (docs/rooms.md, "Ends"). */
export const CONNECTION_LOST_MS = 30_000;
/**
 * The fallback watch fires this long after the loss would be seen by the instance holding the call,
 * so that instance, when alive, always ends the call itself first (room-calls.ts).
 */
export const WATCH_SLACK_MS = 15_000;
/** The longest call a room carries; then it is ended (`max_duration`). */
export const MAX_ROOM_CALL_MS = 3_600_000;

export interface RoomTimerPayload {
  tenant_id: string;
  room_id: string;
}

const room = { tenant_id: true, room_id: true } as const;

/** The rooms context's timer kinds: all carry whose room (timer-kind.ts). */
export const ROOM_TIMER = {
  expire: defineTimerKind<RoomTimerPayload>('room.expire', room),
  setup: defineTimerKind<RoomTimerPayload>('room.setup', room),
  session: defineTimerKind<RoomTimerPayload>('room.session', room),
  mediaWatch: defineTimerKind<RoomTimerPayload>('room.media_watch', room),
};

export const mediaWatchKey = (roomId: string): string => `room.media:${roomId}`;
const expireKey = (roomId: string): string => `room.expire:${roomId}`;

/**
 * Turns what happens to a room into durable timers, in its checkpoint's transaction: its expiry at
 * expires_at (cancelled once it is joined, failed or expired), the simulated agent failure of the
 * `agent_unreachable` scenario, the fallback watch of a joined room's media, and the sync of the
 * room's session with the room (opened at the join, ended at the completion or when the joined call
 * broke, recorded after).
 */
export function roomReactor(timers: TimersService, opts: { gateway: boolean }): Processor {
  let scheduled = false;
  return defineReactor<ReactsTo>({
    name: 'room_reactor',
    stream: roomStream,
    edge: roomEdge.only(
      'room.defined',
      'room.created',
      'room.joined',
      'room.call_failed',
      'room.completed',
      'room.recorded',
      'room.expired',
      'room.failed',
    ),
    afterCommit: () => {
      if (scheduled) timers.poke();
      scheduled = false;
    },
    async applyBatch(tx, events: readonly Handled<ReactsTo>[]) {
      const due: ScheduleTimer[] = [];
      const cancelled: string[] = [];
      for (const event of events) {
        const tenantId = event.metadata.tenant_id;
        if (!tenantId) continue;
        const roomId = event.entityId;
        const payload: RoomTimerPayload = { tenant_id: tenantId, room_id: roomId };
        const at = Date.parse(event.metadata.created_at);
        const sync = (stage: string) =>
          due.push(
            ROOM_TIMER.session.at({ dueAt: new Date(at), payload, dedupeKey: `room.session:${roomId}:${stage}` }),
          );
        switch (event.type) {
          case 'room.defined':
            if (event.data.test_scenario === 'agent_unreachable')
              due.push(ROOM_TIMER.setup.at({ dueAt: new Date(at), payload, dedupeKey: `room.setup:${roomId}` }));
            break;
          case 'room.created':
            due.push(
              ROOM_TIMER.expire.at({
                dueAt: new Date(event.data.expires_at),
                payload,
                dedupeKey: expireKey(roomId),
              }),
            );
            break;
          case 'room.joined': {
            cancelled.push(expireKey(roomId));
            sync('joined');
            const joined = Date.parse(event.data.joined_at);
            due.push(
              ROOM_TIMER.mediaWatch.at({
                // Through a gateway the platform sees no media: only the call's maximum length is watched.
                dueAt: new Date(
                  opts.gateway ? joined + MAX_ROOM_CALL_MS : joined + CONNECTION_LOST_MS + WATCH_SLACK_MS,
                ),
                payload,
                dedupeKey: mediaWatchKey(roomId),
              }),
            );
            break;
          }
          case 'room.completed':
            cancelled.push(mediaWatchKey(roomId));
            sync('completed');
            break;
          case 'room.call_failed':
            cancelled.push(mediaWatchKey(roomId));
            sync('failed');
            break;
          case 'room.recorded':
            sync('recorded');
            break;
          case 'room.expired':
          case 'room.failed':
            cancelled.push(expireKey(roomId));
            break;
          default: {
            const unreachable: never = event;
            void unreachable;
          }
        }
      }
      scheduled = due.length > 0;
      await timers.scheduleMany(due, tx);
      await timers.cancelMany(cancelled, tx);
    },
  });
}
