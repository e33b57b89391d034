/** The response schemas of the rooms API (named ones become `components.schemas`). */
import { pageOf, shape } from '../../kernel/http/api-docs';
import { AGENT_CONFIG } from '../../sessions';
import { ROOM_STATUSES } from '../domain/room.decider';

const nullable = (type: string, description?: string) => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const nullableTime = { type: ['string', 'null'], format: 'date-time' };

export const ROOM = shape('Room', {
  room_id: { type: 'string', description: 'The room id (`room_…`).' },
  room_url: { type: 'string', description: 'The link to give the participant: a page that talks to the agent.' },
  status: { type: 'string', enum: ROOM_STATUSES },
  expires_at: { type: 'string', format: 'date-time' },
  participant_id: { type: 'string' },
  client_reference_id: nullable('string', 'Your reference, echoed in the room events and session.ended.'),
  session_id: nullable('string', 'The conversation’s session, once the participant has joined.'),
  agent_config: { oneOf: [AGENT_CONFIG, { type: 'null' }] },
  voice_id: nullable('string'),
  test_scenario: nullable('string', 'A scripted participant, for tests.'),
  created_at: { type: 'string', format: 'date-time' },
  landing_viewed_at: nullableTime,
  joined_at: nullableTime,
  completed_at: nullableTime,
  duration_seconds: nullable('integer'),
  end_reason: nullable('string'),
  expired_at: nullableTime,
  failed_at: nullableTime,
  error_code: nullable('string'),
  error_message: nullable('string'),
});
export const ROOM_PAGE = pageOf('RoomPage', ROOM);

export const ROOM_EXAMPLE = {
  room_id: 'room_01jf8w2c4v6b8n0m2q4w',
  room_url: 'http://localhost:3000/rooms/room_01jf8w2c4v6b8n0m2q4w?token=…',
  status: 'created',
  expires_at: '2026-11-22T10:00:00.000Z',
  participant_id: 'par_01jf8w2c4v6b8n0m2q4w',
  client_reference_id: 'order-84213',
  session_id: null,
  agent_config: { prompt: 'You are Ava, a friendly scheduling assistant for Northwind Dental.' },
  voice_id: null,
  test_scenario: null,
  created_at: '2026-11-21T10:00:00.000Z',
  landing_viewed_at: null,
  joined_at: null,
  completed_at: null,
  duration_seconds: null,
  end_reason: null,
  expired_at: null,
  failed_at: null,
  error_code: null,
  error_message: null,
};
