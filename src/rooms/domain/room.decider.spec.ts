/**
 * Given/when/then on the pure room decider: creation, the landing viewed once, the join, the end
 * (its duration from the join), expiry, failure and the recording; every catalog payload it emits is
 * checked against the catalog schema.
 */
import { DeciderSpecification } from '../../../test/support/decider-specification';
import { EventCatalog } from '../../catalog/event-catalog';
import { fold } from '../../kernel/decider';
import { roomEvents } from '../rooms.events';
import { RoomCommand, roomDecider, RoomDefinition, RoomEvent, refusal } from './room.decider';

const spec = DeciderSpecification.for(roomDecider);
const catalog = EventCatalog.from([roomEvents]);

const T0 = Date.parse('2026-03-02T17:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const ROOM = 'room_0123456789abcdefghij';
const URL = `https://rooms.example/${ROOM}?token=1.sig`;
const REFS = { participant_id: 'par_0123456789abcdefghij', client_reference_id: 'crm-1' };
const definition: RoomDefinition = {
  room_id: ROOM,
  participant_id: REFS.participant_id,
  session_id: 'ses_0123456789abcdefghij',
  client_reference_id: 'crm-1',
  agent_config: { prompt: 'Hi' },
  voice_id: 'voice_default',
  expires_at: at(3600),
  test_scenario: null,
};

const created: RoomEvent[] = [
  { type: 'room.defined', data: definition },
  { type: 'room.created', data: { room_id: ROOM, room_url: URL, expires_at: at(3600), ...REFS } },
];
const viewed: RoomEvent = { type: 'room.landing_viewed', data: { room_id: ROOM, viewed_at: at(10), ...REFS } };
const joined: RoomEvent = {
  type: 'room.joined',
  data: { room_id: ROOM, participant_id: REFS.participant_id, joined_at: at(20), client_reference_id: 'crm-1' },
};
const completed: RoomEvent[] = [
  { type: 'room.hung_up', data: { reason: 'hangup', at: at(95) } },
  { type: 'room.completed', data: { room_id: ROOM, completed_at: at(95), duration_seconds: 75, ...REFS } },
];

function decided(given: RoomEvent[], command: RoomCommand): readonly RoomEvent[] {
  const events = roomDecider.decide(command, fold(roomDecider, given));
  for (const e of events)
    if (catalog.isCatalogType(e.type)) expect([e.type, catalog.validatePayload(e.type, e.data)]).toEqual([e.type, []]);
  return events;
}

describe('room decider', () => {
  it('create → room.defined (internal) and room.created with the signed URL; a retry creates nothing', () => {
    expect(decided([], { type: 'create', definition, roomUrl: URL })).toEqual(created);
    spec.given(created).when({ type: 'create', definition, roomUrl: URL }).thenNothingHappened();
  });

  it('the landing is viewed once: a reload, or a view after the join, records nothing', () => {
    expect(decided(created, { type: 'view', at: at(10) })).toEqual([viewed]);
    spec
      .given([...created, viewed])
      .when({ type: 'view', at: at(12) })
      .thenNothingHappened();
    spec
      .given([...created, viewed, joined])
      .when({ type: 'view', at: at(30) })
      .thenNothingHappened();
  });

  it('joins from the landing (or straight from the link), once', () => {
    expect(decided([...created, viewed], { type: 'join', at: at(20) })).toEqual([joined]);
    spec
      .given(created)
      .when({ type: 'join', at: at(20) })
      .then(joined);
    spec
      .given([...created, viewed, joined])
      .when({ type: 'join', at: at(25) })
      .thenThrows('conflict');
  });

  it('refuses a view or a join once expires_at has passed, or the room is over', () => {
    spec
      .given(created)
      .when({ type: 'view', at: at(3600) })
      .thenThrows('gone');
    spec
      .given([...created, viewed])
      .when({ type: 'join', at: at(3601) })
      .thenThrows('gone');
    spec
      .given([...created, viewed, joined, ...completed])
      .when({ type: 'view', at: at(100) })
      .thenThrows({ code: 'gone', message: 'This call has ended.' });
    spec
      .given([])
      .when({ type: 'view', at: at(1) })
      .thenThrows({ code: 'not_found', param: 'room_id' });
    expect(refusal({ status: 'joined', expires_at: at(10) }, at(20), 'view')).toBeNull();
  });

  it('completes a joined room once: duration from the join to the end', () => {
    expect(decided([...created, viewed, joined], { type: 'complete', at: at(95), reason: 'hangup' })).toEqual(
      completed,
    );
    spec
      .given([...created, viewed, joined, ...completed])
      .when({ type: 'complete', at: at(99), reason: 'connection_lost' })
      .thenNothingHappened();
    spec
      .given([...created, viewed])
      .when({ type: 'complete', at: at(30), reason: 'hangup' })
      .thenNothingHappened();
  });

  it('a connection lost before any audio ends as of the join (never before it)', () => {
    spec
      .given([...created, joined])
      .when({ type: 'complete', at: at(5), reason: 'connection_lost' })
      .then([
        { type: 'room.hung_up', data: { reason: 'connection_lost', at: at(20) } },
        { type: 'room.completed', data: { room_id: ROOM, completed_at: at(20), duration_seconds: 0, ...REFS } },
      ]);
  });

  it('expires an unjoined room as of expires_at, even when the timer ran late; never a joined one', () => {
    const expired: RoomEvent = { type: 'room.expired', data: { room_id: ROOM, expired_at: at(3600), ...REFS } };
    expect(decided(created, { type: 'expire', at: at(3650) })).toEqual([expired]);
    spec
      .given([...created, viewed])
      .when({ type: 'expire', at: at(3600) })
      .then(expired);
    spec
      .given(created)
      .when({ type: 'expire', at: at(3599) })
      .thenNothingHappened();
    spec
      .given([...created, joined])
      .when({ type: 'expire', at: at(3600) })
      .thenNothingHappened();
    spec
      .given([...created, expired])
      .when({ type: 'expire', at: at(3700) })
      .thenNothingHappened();
  });

  it('fails a room that is being set up, with the error code and message; not one already joined', () => {
    const fail: RoomCommand = { type: 'fail', errorCode: 'agent_unreachable', errorMessage: 'No agent.' };
    expect(decided(created, fail)).toEqual([
      {
        type: 'room.failed',
        data: { room_id: ROOM, error_code: 'agent_unreachable', error_message: 'No agent.', ...REFS },
      },
    ]);
    spec
      .given([...created, joined])
      .when(fail)
      .thenNothingHappened();
  });

  it('fails a joined call that broke (media or recording) as of when it broke, once; not a room never joined', () => {
    const broke: RoomCommand = {
      type: 'fail_call',
      at: at(50),
      errorCode: 'recording_failed',
      errorMessage: 'EFBIG',
    };
    expect(decided([...created, joined], broke)).toEqual([
      { type: 'room.call_failed', data: { at: at(50), error_code: 'recording_failed' } },
      {
        type: 'room.failed',
        data: { room_id: ROOM, error_code: 'recording_failed', error_message: 'EFBIG', ...REFS },
      },
    ]);
    const failed = decided([...created, joined], broke);
    expect(fold(roomDecider, [...created, joined, ...failed])).toMatchObject({
      status: 'failed',
      callFailure: { at: at(50), error_code: 'recording_failed' },
    });
    for (const given of [created, [...created, joined, ...failed], [...created, joined, ...completed]])
      spec.given(given).when(broke).thenNothingHappened();
    // Nothing completes or records a failed call afterwards.
    spec
      .given([...created, joined, ...failed])
      .when({ type: 'complete', at: at(60), reason: 'hangup' })
      .thenNothingHappened();
  });

  it('records a completed room once', () => {
    const record: RoomCommand = { type: 'record', recordingId: 'rec_0123456789', durationSeconds: 75 };
    spec
      .given([...created, joined, ...completed])
      .when(record)
      .then({ type: 'room.recorded', data: { recording_id: 'rec_0123456789', duration_seconds: 75 } });
    spec
      .given([...created, joined])
      .when(record)
      .thenNothingHappened();
  });
});
