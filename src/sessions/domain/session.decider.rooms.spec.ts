/**
 * A WebRTC room's session on the pure session decider: opened at the join (created and started at
 * once, no phone legs, the room's client_reference_id), ended and recorded through the same signals
 * as a call, and never metered by the minute. Every catalog event is checked against its schema.
 */
import {
  applied,
  at,
  ctx,
  emitted,
  expectCatalogValid,
  SESSION_ID,
  spec,
  step,
} from '../../../test/support/session-decider-fixtures';
import { fold } from '../../kernel/decider';
import { sessionDecider, sessionEdge, type Live, type SessionEvent } from './session.decider';

const ROOM = 'room_0123456789abcdefghij';
const open = {
  type: 'open_room' as const,
  sessionId: SESSION_ID,
  roomId: ROOM,
  clientReferenceId: 'crm-1',
  agentConfig: { prompt: 'Hi', voice_id: 'voice_ava' },
  startedAt: at(0),
};
const phoneLegs = { to_number: null, from_number: null, campaign_id: null, contact_id: null };
const opened: SessionEvent[] = [
  {
    type: 'session.placed',
    data: {
      session_id: SESSION_ID,
      ...phoneLegs,
      direction: 'inbound',
      agent_config: { prompt: 'Hi', voice_id: 'voice_ava' },
      voice_id: 'voice_ava',
      test_mode: false,
      client_reference_id: 'crm-1',
      email: null,
      first_name: null,
      last_name: null,
      room_id: ROOM,
    },
  },
  { type: 'session.created', data: { session_id: SESSION_ID, ...phoneLegs, voice_id: 'voice_ava', status: 'queued' } },
  { type: 'session.started', data: { session_id: SESSION_ID, started_at: at(0) } },
];

afterAll(() => expectCatalogValid(emitted));

describe('session decider: a room session', () => {
  it('opens created and started at the join, with null phone legs; a repeat opens nothing', () => {
    spec.given([]).when(open).then(opened);
    spec.given(opened).when(open).thenNothingHappened();
  });

  it('ends with the room: null phone fields, the client reference, the given duration, no cost; then recorded', () => {
    const hangup = {
      type: 'signal' as const,
      seq: 1,
      signal: { kind: 'hangup' as const, status: 'completed' as const, end_reason: 'completed', duration_seconds: 75 },
      ...ctx(75),
    };
    const nullParties = {
      client_reference_id: 'crm-1',
      campaign_id: null,
      contact_id: null,
      from_number: null,
      to_number: null,
      phone_number: null,
      email: null,
      first_name: null,
      last_name: null,
    };
    const ended = step(opened, hangup, [
      {
        type: 'session.ended',
        data: {
          session_id: SESSION_ID,
          ...nullParties,
          end_reason: 'completed',
          ended_at: at(75),
          duration_seconds: 75,
          actual_cost_cents: 0,
          transcript: [],
          transcript_url: null,
          function_invocations: [],
          status: 'completed',
          started_at: at(0),
        },
      },
      applied(1, 'hangup'),
    ]);
    const recording = {
      type: 'signal' as const,
      seq: 2,
      signal: {
        kind: 'recording_ready' as const,
        recording_id: 'rec_0123456789',
        duration_seconds: 75,
        channels: 'dual' as const,
      },
      ...ctx(80),
    };
    spec
      .given(ended)
      .when(recording)
      .then([
        {
          type: 'session.recording_completed',
          data: {
            session_id: SESSION_ID,
            campaign_id: null,
            contact_id: null,
            from_number: null,
            to_number: null,
            phone_number: null,
            email: null,
            first_name: null,
            last_name: null,
            recording_id: 'rec_0123456789',
            status: 'completed',
            channels: 'dual',
            started_at: at(0),
            ended_at: at(75),
            duration_seconds: 75,
            recording_url: 'https://api.example/recordings/rec_0123456789.wav',
          },
        },
        applied(2, 'recording_ready'),
      ]);
  });

  it('is inbound (the participant came to the agent), its stored events and older ones alike', () => {
    expect((fold(sessionDecider, opened) as Live).direction).toBe('inbound');
    // Older events recorded no direction: the edge reads a room's as inbound, a phone call's as outbound.
    const placed = opened[0]!;
    if (placed.type !== 'session.placed') throw new Error('the room opens with session.placed');
    const { direction: _recorded, ...unrecorded } = placed.data;
    const readBack = (data: Record<string, unknown>) => sessionEdge.decode({ type: 'session.placed', data });
    expect(readBack(unrecorded)).toMatchObject({ data: { direction: 'inbound' } });
    expect(readBack({ ...unrecorded, room_id: undefined })).toMatchObject({ data: { direction: 'outbound' } });
    expect(readBack({ ...placed.data })).toMatchObject({ data: { direction: 'inbound' } });
  });
});
