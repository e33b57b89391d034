import type { PoolClient } from 'pg';
import type { StoredEvent } from '../../event-store/event-store.port';
import type { DomainEvent } from '../../kernel/decider';
import { streamName } from '../../kernel/stream-name';
import { defineEdge, UndecodableEvent } from '../../kernel/event-edge';
import { defineProjection, defineReactor, everyEvent } from './processor';

type NoteEvent = DomainEvent<'note.added', { text: string }> | DomainEvent<'note.removed', { reason: string }>;

const noteEdge = defineEdge<NoteEvent>({ 'note.added': { text: true }, 'note.removed': { reason: true } });
const noteStream = streamName('note');
const tx = {} as PoolClient;
let position = 0n;

function stored(streamId: string, type: string, data: Record<string, unknown>): StoredEvent {
  position++;
  return {
    id: `00000000-0000-7000-8000-${position.toString().padStart(12, '0')}`,
    type,
    data,
    metadata: { tenant_id: 'ten_1', created_at: '2026-01-01T00:00:00.000Z' },
    streamId,
    streamPosition: 0,
    position: { commit: position, prepare: position },
  };
}

describe('defineProjection', () => {
  it('hands each event typed, with the entity id read from its stream name', async () => {
    const seen: string[] = [];
    const projection = defineProjection<NoteEvent>({
      name: 'notes',
      edge: noteEdge,
      stream: noteStream,
      tables: ['notes'],
      async apply(_tx, event) {
        seen.push(event.type === 'note.added' ? `${event.entityId}+${event.data.text}` : `${event.entityId}-`);
      },
    });
    await projection.handle(tx, [
      stored(noteStream('n1'), 'note.added', { text: 'hi' }),
      stored(noteStream('n2'), 'note.removed', { reason: 'x' }),
    ]);
    expect(seen).toEqual(['n1+hi', 'n2-']);
    expect(projection.tables).toEqual(['notes']);
    expect(projection.rebuildable).toBeUndefined();
  });

  it('passes over events of its types stored in a stream of another category, instead of failing on them', async () => {
    const seen: string[] = [];
    const projection = defineProjection<NoteEvent>({
      name: 'notes',
      edge: noteEdge.only('note.added'),
      stream: noteStream,
      tables: ['notes'],
      async apply(_tx, event) {
        seen.push(event.entityId);
      },
    });
    await expect(
      projection.handle(tx, [
        stored('imported-n9', 'note.added', { text: 'from elsewhere' }),
        stored(noteStream('n3'), 'note.added', { text: 'ours' }),
      ]),
    ).resolves.toBeUndefined();
    expect(seen).toEqual(['n3']);
  });

  it('reads each event through its edge: an older stored shape upcast, a type with a required field missing refused', async () => {
    const texts: string[] = [];
    const projection = defineProjection<NoteEvent>({
      name: 'notes',
      edge: defineEdge<NoteEvent>(
        { 'note.added': { text: true }, 'note.removed': { reason: true } },
        { 'note.added': (data) => (typeof data.body === 'string' ? { text: data.body } : data) },
      ),
      stream: noteStream,
      tables: [],
      async apply(_tx, event) {
        if (event.type === 'note.added') texts.push(event.data.text);
      },
    });
    await projection.handle(tx, [
      stored(noteStream('n4'), 'note.added', { body: 'v1 shape' }),
      stored(noteStream('n5'), 'note.added', { text: 'v2 shape' }),
    ]);
    expect(texts).toEqual(['v1 shape', 'v2 shape']);
    await expect(projection.handle(tx, [stored(noteStream('n6'), 'note.added', { note: 'neither' })])).rejects.toThrow(
      UndecodableEvent,
    );
  });

  it('gives a whole batch to applyBatch, and refuses both or neither of apply and applyBatch', async () => {
    const batches: number[] = [];
    const reactor = defineReactor({
      name: 'counter',
      edge: everyEvent,
      afterCommit: () => undefined,
      async applyBatch(_tx, events) {
        batches.push(events.length);
      },
    });
    await reactor.handle(tx, [stored('a-1', 'x', {}), stored('b-2', 'y', {})]);
    expect(batches).toEqual([2]);
    expect(reactor.afterCommit).toBeDefined();
    expect(() => defineReactor({ name: 'none', edge: everyEvent })).toThrow('give one of apply and applyBatch');
    expect(() =>
      defineReactor({
        name: 'both',
        edge: everyEvent,
        apply: async () => undefined,
        applyBatch: async () => undefined,
      }),
    ).toThrow('give one of apply and applyBatch');
  });
});
