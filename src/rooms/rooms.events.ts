/**
 * The rooms context's part of the event catalog: room.*.
 *
 * Payloads stay closed (additionalProperties: false), and every room event also accepts
 * participant_id and client_reference_id, optional and nullable: the two room fields a receiver
 * joins on (docs/events.md, "Conventions").
 */
import { defineEvents } from '../catalog/event-fragment';
import { type FieldsOf, integer, object, optional, text, timestamp } from '../catalog/payload-schema';

const ROOM_EXTRA = 'Optional on every room event, to join on.';

interface RoomRefs {
  participant_id?: string | null;
  client_reference_id?: string | null;
}

export interface RoomCreatedData extends RoomRefs {
  room_id: string;
  room_url: string;
  expires_at: string;
}

export interface RoomLandingViewedData extends RoomRefs {
  room_id: string;
  viewed_at: string;
}

export interface RoomJoinedData extends Omit<RoomRefs, 'participant_id'> {
  room_id: string;
  participant_id: string;
  joined_at: string;
}

export interface RoomCompletedData extends RoomRefs {
  room_id: string;
  completed_at: string;
  duration_seconds: number;
}

export interface RoomExpiredData extends RoomRefs {
  room_id: string;
  expired_at: string;
}

export interface RoomFailedData extends RoomRefs {
  room_id: string;
  error_code: string;
  error_message: string;
}

const roomRefs: FieldsOf<RoomRefs> = {
  participant_id: optional(text(ROOM_EXTRA)),
  client_reference_id: optional(text(ROOM_EXTRA)),
};

const roomCreated = object<RoomCreatedData>({
  room_id: text(),
  room_url: text('Signed link for the participant: `{rooms_url}/<room_id>?token=…`.'),
  expires_at: timestamp(),
  ...roomRefs,
});

const roomLandingViewed = object<RoomLandingViewedData>({
  room_id: text(),
  viewed_at: timestamp(),
  ...roomRefs,
});

const roomJoined = object<RoomJoinedData>({
  room_id: text(),
  participant_id: text(),
  joined_at: timestamp(),
  client_reference_id: roomRefs.client_reference_id,
});

const roomCompleted = object<RoomCompletedData>({
  room_id: text(),
  completed_at: timestamp(),
  duration_seconds: integer('End time minus join time.'),
  ...roomRefs,
});

const roomExpired = object<RoomExpiredData>({
  room_id: text(),
  expired_at: timestamp(),
  ...roomRefs,
});

const roomFailed = object<RoomFailedData>({
  room_id: text(),
  error_code: text('e.g. agent_unreachable (not a closed set).'),
  error_message: text('Free text.'),
  ...roomRefs,
});

export type RoomPayloads = {
  'room.created': RoomCreatedData;
  'room.landing_viewed': RoomLandingViewedData;
  'room.joined': RoomJoinedData;
  'room.completed': RoomCompletedData;
  'room.expired': RoomExpiredData;
  'room.failed': RoomFailedData;
};

// Example values shared with the other contexts' examples, so the documented events tell one consistent story.
const EX = {
  room: 'room_01jf8za8h2j4k6l8z0x2',
  participant: 'par_01jf8za8q1w3e5r7t9y1',
} as const;

export const roomEvents = defineEvents<RoomPayloads>({
  groups: { room: 'Room events' },
  events: {
    'room.created': {
      description: 'A WebRTC room was created and a signed URL minted for the participant.',
      payload: roomCreated,
      example: {
        room_id: EX.room,
        room_url: `https://api.example.com/rooms/${EX.room}?token=eyJyIjoicm9vbV8wMWpmOHphOGgyajRrNmw4ejB4MiJ9.c2ln`,
        expires_at: '2026-03-02T18:00:00.000Z',
        participant_id: EX.participant,
        client_reference_id: 'order-84213',
      },
    },
    'room.landing_viewed': {
      description: 'The participant opened the room URL and has not joined yet (once per room).',
      payload: roomLandingViewed,
      example: { room_id: EX.room, viewed_at: '2026-03-02T17:10:02.775Z' },
    },
    'room.joined': {
      description: 'The participant accepted microphone access and joined; the agent is connected.',
      payload: roomJoined,
      example: {
        room_id: EX.room,
        participant_id: EX.participant,
        joined_at: '2026-03-02T17:10:09.412Z',
        client_reference_id: 'order-84213',
      },
    },
    'room.completed': {
      description: 'Both sides hung up cleanly.',
      payload: roomCompleted,
      example: {
        room_id: EX.room,
        completed_at: '2026-03-02T17:14:21.090Z',
        duration_seconds: 251,
        participant_id: EX.participant,
        client_reference_id: 'order-84213',
      },
    },
    'room.expired': {
      description: 'expires_at passed and nobody joined.',
      payload: roomExpired,
      example: { room_id: 'room_01jf8zf4g6h8j0k2l4z6', expired_at: '2026-03-02T18:00:00.000Z' },
    },
    'room.failed': {
      description: 'Room setup could not finish, for example relay authentication failed or the agent is unreachable.',
      payload: roomFailed,
      example: {
        room_id: 'room_01jf8zg8x0c2v4b6n8m0',
        error_code: 'agent_unreachable',
        error_message: 'The agent did not answer within 10 seconds.',
      },
    },
  },
});
