/**
 * The contexts' edges (src/kernel/event-edge.ts) against the catalog: every catalog event type is
 * read by its context's edge, and every catalog example reads back as itself through the joined edge,
 * so an edge's required fields cannot drift from the payload the catalog documents.
 */
import { CONTEXTS, eventCatalog } from '../../src/app.module';
import { UndecodableEvent } from '../../src/kernel/event-edge';
import { joinContextEdges, type ContextModule } from '../../src/runtime/bounded-context';

const contexts = CONTEXTS.map((c: ContextModule) => c.context);

describe('the contexts’ edges', () => {
  const joined = joinContextEdges(contexts);

  it('read every catalog type, each from the context whose fragment defines it', () => {
    for (const context of contexts) {
      for (const type of Object.keys(context.events?.events ?? {})) {
        expect({ context: context.name, type, read: context.edge?.reads(type) }).toEqual({
          context: context.name,
          type,
          read: true,
        });
      }
    }
    expect(eventCatalog.types.filter((t) => !joined?.reads(t))).toEqual([]);
  });

  it('read every catalog example as it is', () => {
    for (const type of eventCatalog.types) {
      const example = eventCatalog.entry(type)?.example;
      expect(example).toBeDefined();
      if (example) expect(joined?.decode({ type, data: example })).toEqual({ type, data: example });
    }
  });

  it('refuse a type no context stores, and a payload without a required field', () => {
    expect(() => joined?.decode({ type: 'session.unheard_of', data: {} })).toThrow(UndecodableEvent);
    expect(() => joined?.decode({ type: 'session.started', data: { session_id: 'ses_1' } })).toThrow(
      'session.started: missing started_at',
    );
  });

  it('are one per type: a second context claiming a type fails the start', () => {
    const [first] = contexts.filter((c) => c.edge);
    expect(() => joinContextEdges([...contexts, { name: 'copy', edge: first?.edge }])).toThrow('read by two edges');
  });
});
