import { toStoredEvent } from './event-rows';

// Rows read as text become StoredEvents whose data and metadata are parsed on first read.

const row = (data: string, metadata = '{"tenant_id": "ten_1", "created_at": "2025-01-01T00:00:00.000Z"}') => [
  '0190a0b0-0000-7000-8000-000000000001',
  'session.created',
  data,
  metadata,
  'session-ses_1',
  '3',
  '1234',
  '98765432109876543',
];

describe('toStoredEvent', () => {
  it('reads the columns, and parses data and metadata once, into the same object every time', () => {
    const event = toStoredEvent(row('{"n": 1, "nested": {"a": [1, 2]}}'));
    expect(event.id).toBe('0190a0b0-0000-7000-8000-000000000001');
    expect(event.streamPosition).toBe(3);
    expect(event.position).toEqual({ commit: 1234n, prepare: 98765432109876543n });
    const data = event.data;
    expect(data).toEqual({ n: 1, nested: { a: [1, 2] } });
    expect(event.data).toBe(data);
    expect(event.metadata.tenant_id).toBe('ten_1');
    expect(event.metadata).toBe(event.metadata);
  });

  it('looks like a plain event to a spread, toEqual and Object.keys', () => {
    const event = toStoredEvent(row('{"n": 2}'));
    const plain = {
      id: event.id,
      type: 'session.created',
      data: { n: 2 },
      metadata: { tenant_id: 'ten_1', created_at: '2025-01-01T00:00:00.000Z' },
      streamId: 'session-ses_1',
      streamPosition: 3,
      position: { commit: 1234n, prepare: 98765432109876543n },
    };
    expect(Object.keys(event).sort()).toEqual(Object.keys(plain).sort());
    expect(event).toEqual(plain);
    // A spread (as an upcast does) keeps data and metadata, parsed.
    const copy = { ...event, type: 'other' };
    expect(copy.data).toEqual({ n: 2 });
    expect(copy.metadata).toEqual(plain.metadata);
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
  });

  it('names the event whose data is not JSON, when it is read (not when the page is)', () => {
    const event = toStoredEvent(row('{"n": '));
    expect(event.type).toBe('session.created');
    expect(() => event.data).toThrow(
      /^event 0190a0b0-0000-7000-8000-000000000001 \(session-ses_1@3\) has data that is not JSON: /,
    );
    const badMetadata = toStoredEvent(row('{}', 'nope'));
    expect(badMetadata.data).toEqual({});
    expect(() => badMetadata.metadata).toThrow(/has metadata that is not JSON/);
  });
});
