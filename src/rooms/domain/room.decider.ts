/**
 * The room decider: created → landing viewed (once) → joined → completed, or expired (nobody joined
 * by expires_at), or failed (the agent could not be set up, or the joined call's media or recording
 * broke). Pure: the time comes in the commands.
 */
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { DomainError, notFound } from '../../kernel/result';
import { streamName } from '../../kernel/stream-name';
import type {
  RoomCompletedData,
  RoomCreatedData,
  RoomExpiredData,
  RoomFailedData,
  RoomJoinedData,
  RoomLandingViewedData,
} from '../rooms.events';

export const ROOM_STATUSES = ['created', 'landing_viewed', 'joined', 'completed', 'expired', 'failed'] as const;
export type RoomStatus = (typeof ROOM_STATUSES)[number];

/** The agent a room's participant talks to (the sessions context's AgentConfig, as the room keeps it). */
export interface RoomAgent {
  prompt: string;
  voice_id?: string;
  dispositions?: { code: string; description: string }[];
}

/** How a joined room's call ended. */
export type EndReason = 'hangup' | 'connection_lost' | 'max_duration';

/** What POST /v1/rooms decided, kept in the internal room.defined event. */
export interface RoomDefinition {
  room_id: string;
  participant_id: string;
  /** The session the join opens (named up front, so that every retry opens the same one). */
  session_id: string;
  client_reference_id: string | null;
  agent_config: RoomAgent | null;
  voice_id: string;
  expires_at: string;
  test_scenario: 'agent_unreachable' | null;
}

/** Internal events carry what the catalog payloads do not: the definition, the end's reason, the recording. */
export type RoomEvent =
  | DomainEvent<'room.defined', RoomDefinition>
  | DomainEvent<'room.created', RoomCreatedData>
  | DomainEvent<'room.landing_viewed', RoomLandingViewedData>
  | DomainEvent<'room.joined', RoomJoinedData>
  | DomainEvent<'room.hung_up', { reason: EndReason; at: string }>
  /** A joined call broke (its media or its recording): when, and why; room.failed follows. */
  | DomainEvent<'room.call_failed', { at: string; error_code: string }>
  | DomainEvent<'room.completed', RoomCompletedData>
  | DomainEvent<'room.expired', RoomExpiredData>
  | DomainEvent<'room.failed', RoomFailedData>
  | DomainEvent<'room.recorded', { recording_id: string; duration_seconds: number }>;

export const ROOM_EVENT_TYPES: readonly RoomEvent['type'][] = [
  'room.defined',
  'room.created',
  'room.landing_viewed',
  'room.joined',
  'room.hung_up',
  'room.call_failed',
  'room.completed',
  'room.expired',
  'room.failed',
  'room.recorded',
];

export type RoomCommand =
  | { type: 'create'; definition: RoomDefinition; roomUrl: string }
  | { type: 'view'; at: string }
  | { type: 'join'; at: string }
  | { type: 'complete'; at: string; reason: EndReason }
  | { type: 'expire'; at: string }
  /** The agent could not be set up: fails a room not joined yet (a joined one is left alone). */
  | { type: 'fail'; errorCode: string; errorMessage: string }
  /** A joined call broke (media_error, recording_failed): fails the joined room as of `at`. */
  | { type: 'fail_call'; at: string; errorCode: string; errorMessage: string }
  | { type: 'record'; recordingId: string; durationSeconds: number };

export interface Room extends RoomDefinition {
  status: RoomStatus;
  joinedAt: string | null;
  completedAt: string | null;
  endReason: EndReason | null;
  durationSeconds: number | null;
  /** Set when a joined call broke (room.call_failed). */
  callFailure: { at: string; error_code: string } | null;
  recording: { recording_id: string; duration_seconds: number } | null;
}

export type RoomState = { status: 'none' } | Room;

export const roomStream = streamName('room');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const roomEdge = defineEdge<RoomEvent>({
  'room.defined': {
    room_id: true,
    participant_id: true,
    session_id: true,
    client_reference_id: true,
    agent_config: true,
    voice_id: true,
    expires_at: true,
    test_scenario: true,
  },
  'room.created': { room_id: true, room_url: true, expires_at: true },
  'room.landing_viewed': { room_id: true, viewed_at: true },
  'room.joined': { room_id: true, participant_id: true, joined_at: true },
  'room.hung_up': { reason: true, at: true },
  'room.call_failed': { at: true, error_code: true },
  'room.completed': { room_id: true, completed_at: true, duration_seconds: true },
  'room.expired': { room_id: true, expired_at: true },
  'room.failed': { room_id: true, error_code: true, error_message: true },
  'room.recorded': { recording_id: true, duration_seconds: true },
});

export const roomDecider: Decider<RoomCommand, RoomState, RoomEvent> = {
  edge: roomEdge,
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};

function evolve(state: RoomState, event: RoomEvent): RoomState {
  if (event.type === 'room.defined') {
    return {
      ...event.data,
      status: 'created',
      joinedAt: null,
      completedAt: null,
      endReason: null,
      durationSeconds: null,
      callFailure: null,
      recording: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'room.created':
      return state;
    case 'room.landing_viewed':
      return { ...state, status: 'landing_viewed' };
    case 'room.joined':
      return { ...state, status: 'joined', joinedAt: event.data.joined_at };
    case 'room.hung_up':
      return { ...state, endReason: event.data.reason };
    case 'room.call_failed':
      return { ...state, callFailure: event.data };
    case 'room.completed':
      return {
        ...state,
        status: 'completed',
        completedAt: event.data.completed_at,
        durationSeconds: event.data.duration_seconds,
      };
    case 'room.expired':
      return { ...state, status: 'expired' };
    case 'room.failed':
      return { ...state, status: 'failed' };
    case 'room.recorded':
      return { ...state, recording: event.data };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The fields every room event repeats, to join on (rooms.events.ts). */
const refs = (room: RoomDefinition) => ({
  participant_id: room.participant_id,
  client_reference_id: room.client_reference_id,
});

/**
 * Why a participant cannot open or join the room now, or null. A past expiry is checked before the
 * status. Takes the room's status and expiry only, so that the read model's row can be asked too.
 */
export function refusal(
  room: { status: RoomState['status']; expires_at?: string },
  at: string,
  action: 'view' | 'join',
): DomainError | null {
  if (room.status === 'none') return notFound('room', 'room_id');
  if (room.status === 'completed') return new DomainError('gone', 'This call has ended.');
  if (room.status === 'failed') return new DomainError('gone', 'This room could not be set up.');
  if (room.status === 'joined')
    return action === 'join' ? new DomainError('conflict', 'Someone has already joined this room.') : null;
  if (room.status === 'expired' || (room.expires_at !== undefined && Date.parse(at) >= Date.parse(room.expires_at)))
    return new DomainError('gone', 'This room link has expired.');
  return null;
}

function decide(command: RoomCommand, state: RoomState): RoomEvent[] {
  if (command.type === 'create') {
    if (state.status !== 'none') return []; // a retried creation creates nothing twice
    const room = command.definition;
    return [
      { type: 'room.defined', data: room },
      {
        type: 'room.created',
        data: { room_id: room.room_id, room_url: command.roomUrl, expires_at: room.expires_at, ...refs(room) },
      },
    ];
  }
  if (state.status === 'none') throw notFound('room', 'room_id');
  const id = state.room_id;
  switch (command.type) {
    case 'view': {
      const refused = refusal(state, command.at, 'view');
      if (refused) throw refused;
      // Once: a reload, or a view after the join, records nothing.
      if (state.status !== 'created') return [];
      return [{ type: 'room.landing_viewed', data: { room_id: id, viewed_at: command.at, ...refs(state) } }];
    }
    case 'join': {
      const refused = refusal(state, command.at, 'join');
      if (refused) throw refused;
      return [
        {
          type: 'room.joined',
          data: {
            room_id: id,
            participant_id: state.participant_id,
            joined_at: command.at,
            client_reference_id: state.client_reference_id,
          },
        },
      ];
    }
    case 'complete': {
      if (state.status !== 'joined' || state.joinedAt === null) return [];
      // A connection lost is reported with the time the media stopped, which is never before the join.
      const at = Date.parse(command.at) < Date.parse(state.joinedAt) ? state.joinedAt : command.at;
      const duration = Math.max(0, Math.round((Date.parse(at) - Date.parse(state.joinedAt)) / 1000));
      return [
        { type: 'room.hung_up', data: { reason: command.reason, at } },
        {
          type: 'room.completed',
          data: { room_id: id, completed_at: at, duration_seconds: duration, ...refs(state) },
        },
      ];
    }
    case 'expire':
      // Nobody joined by expires_at: reported as of expires_at, even when the timer ran later (a restart).
      if (
        (state.status !== 'created' && state.status !== 'landing_viewed') ||
        Date.parse(command.at) < Date.parse(state.expires_at)
      )
        return [];
      return [{ type: 'room.expired', data: { room_id: id, expired_at: state.expires_at, ...refs(state) } }];
    case 'fail':
      if (state.status !== 'created' && state.status !== 'landing_viewed') return [];
      return [
        {
          type: 'room.failed',
          data: { room_id: id, error_code: command.errorCode, error_message: command.errorMessage, ...refs(state) },
        },
      ];
    case 'fail_call': {
      if (state.status !== 'joined' || state.joinedAt === null) return [];
      const at = Date.parse(command.at) < Date.parse(state.joinedAt) ? state.joinedAt : command.at;
      return [
        { type: 'room.call_failed', data: { at, error_code: command.errorCode } },
        {
          type: 'room.failed',
          data: { room_id: id, error_code: command.errorCode, error_message: command.errorMessage, ...refs(state) },
        },
      ];
    }
    case 'record':
      if (state.status !== 'completed' || state.recording) return [];
      return [
        {
          type: 'room.recorded',
          data: { recording_id: command.recordingId, duration_seconds: command.durationSeconds },
        },
      ];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
