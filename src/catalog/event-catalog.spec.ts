/**
 * The registry's mechanics on a small made-up catalog: assembly from fragments, validation,
 * filters, key order, envelope, OpenAPI and docs rendering. The platform's own catalog (the published
 * types) is checked in test/unit/event-catalog.spec.ts.
 */
import { defineEvents } from './event-fragment';
import type { EventsOf, MergedPayloads } from './event-fragment';
import { EventCatalog, isUtcDateTime } from './event-catalog';
import { exampleEnvelope, serializeEnvelope, toEnvelope } from './envelope';
import { renderEventsMarkdown } from './events-doc';
import { buildOpenApiWebhooks } from './openapi-webhooks';
import { integer, list, nullable, object, omittable, oneOf, optional, text, timestamp } from './payload-schema';

interface Part {
  name: string;
  count?: number;
}

interface WidgetMadeData {
  widget_id: string;
  colour: 'red' | 'blue';
  made_at: string;
  parts: readonly Part[];
  weight: number | null;
  note?: string | null;
}

interface WidgetScrappedData {
  widget_id: string;
  scrapped_at: string;
}

interface GadgetPingedData {
  gadget_id: string;
  pinged_at: string;
}

type WidgetPayloads = { 'widget.made': WidgetMadeData; 'widget.scrapped': WidgetScrappedData };
type GadgetPayloads = { 'gadget.pinged': GadgetPingedData };

const widgetMade = object<WidgetMadeData>({
  widget_id: text(),
  colour: oneOf(['red', 'blue']),
  made_at: timestamp(),
  parts: list(object<Part>({ name: text(), count: omittable(integer()) })),
  weight: nullable(integer('Grams; null when not weighed.')),
  note: optional(text()),
});

const widgetScrapped = object<WidgetScrappedData>({ widget_id: text(), scrapped_at: timestamp() });

const widgets = defineEvents<WidgetPayloads>({
  groups: { widget: 'Widget events' },
  events: {
    'widget.made': {
      description: 'A widget left the line.',
      payload: widgetMade,
      example: {
        widget_id: 'wid_1',
        colour: 'red',
        made_at: '2026-03-02T17:00:00.000Z',
        parts: [{ name: 'bolt', count: 4 }],
        weight: 120,
        note: null,
      },
    },
    'widget.scrapped': {
      description: 'A widget was scrapped.',
      payload: widgetScrapped,
      example: { widget_id: 'wid_1', scrapped_at: '2026-03-03T09:00:00.000Z' },
    },
  },
});

const gadgets = defineEvents<GadgetPayloads>({
  groups: { gadget: 'Gadget events' },
  events: {
    'gadget.pinged': {
      description: 'A gadget answered a ping.',
      payload: object<GadgetPingedData>({ gadget_id: text(), pinged_at: timestamp() }),
      example: { gadget_id: 'gad_1', pinged_at: '2026-03-02T17:00:01.000Z' },
    },
  },
});

const catalog = EventCatalog.from([widgets, gadgets]);
const { validatePayload, parseEventFilter, matchesEventFilter, orderPayloadKeys } = catalog;

function example(type: string): Record<string, unknown> {
  const entry = catalog.entry(type);
  if (entry === undefined) throw new Error(`missing ${type}`);
  return structuredClone({ ...entry.example });
}

describe('EventCatalog.from', () => {
  it('lists the fragments’ types by group, with group and title', () => {
    expect(catalog.types).toEqual(['widget.made', 'widget.scrapped', 'gadget.pinged']);
    expect(catalog.groups).toEqual(['widget', 'gadget']);
    expect(catalog.groupTitles).toEqual({ widget: 'Widget events', gadget: 'Gadget events' });
    expect(catalog.entries.map((e) => e.group)).toEqual(['widget', 'widget', 'gadget']);
    expect(catalog.entry('widget.made')?.schema.required).toEqual([
      'widget_id',
      'colour',
      'made_at',
      'parts',
      'weight',
    ]);
    expect(catalog.isCatalogType('gadget.pinged')).toBe(true);
    expect(catalog.isCatalogType('gadget.nope')).toBe(false);
    expect(catalog.entry('nope')).toBeUndefined();
    expect(Object.isFrozen(catalog.entries[0]?.schema.properties)).toBe(true);
  });

  it('orders groups as told, keeping each group’s own order', () => {
    const reordered = EventCatalog.from([widgets, gadgets], { groupOrder: ['gadget', 'widget'] });
    expect(reordered.types).toEqual(['gadget.pinged', 'widget.made', 'widget.scrapped']);
    expect(reordered.groups).toEqual(['gadget', 'widget']);
  });

  it('puts the groups a group order leaves out after it, in fragment order', () => {
    const partial = EventCatalog.from([widgets, gadgets], { groupOrder: ['gadget'] });
    expect(partial.groups).toEqual(['gadget', 'widget']);
    expect(partial.types).toEqual(['gadget.pinged', 'widget.made', 'widget.scrapped']);
  });

  it('refuses a group order that repeats or invents a group', () => {
    for (const groupOrder of [
      ['widget', 'gadget', 'widget'],
      ['widget', 'gadget', 'doohickey'],
    ]) {
      expect(() => EventCatalog.from([widgets, gadgets], { groupOrder })).toThrow(/existing event groups, once each/);
    }
  });

  it('refuses a type or a group defined twice', () => {
    expect(() => EventCatalog.from([widgets, widgets])).toThrow(/'widget' is defined by two fragments/);
    const twin = { groups: { other: 'Other' }, events: { 'gadget.pinged': gadgets.events['gadget.pinged']! } };
    expect(() => EventCatalog.from([gadgets, twin])).toThrow(/has no group title/);
  });
});

describe('validatePayload', () => {
  it('accepts every example', () => {
    for (const entry of catalog.entries)
      expect([entry.type, validatePayload(entry.type, entry.example)]).toEqual([entry.type, []]);
  });

  it('reports missing, extra, out-of-enum, mistyped and nested problems, each once', () => {
    const made = example('widget.made');
    expect(validatePayload('widget.made', { ...made, widget_id: undefined, extra: 1 })).toEqual([
      "data must have required property 'widget_id'",
      "data must NOT have additional properties: 'extra'",
    ]);
    expect(validatePayload('widget.made', { ...made, colour: 'green' })).toEqual([
      'data/colour must be equal to one of the allowed values',
    ]);
    expect(validatePayload('widget.made', { ...made, weight: 1.5 })).toEqual(['data/weight must be integer,null']);
    expect(validatePayload('widget.made', { ...made, parts: [{ count: null }] })).toEqual([
      "data/parts/0 must have required property 'name'",
      'data/parts/0/count must be integer',
    ]);
    expect(
      validatePayload('widget.scrapped', { ...example('widget.scrapped'), scrapped_at: '2026-02-30T00:00:00Z' }),
    ).toEqual(['data/scrapped_at must match format "date-time"']);
  });

  it('lets optional fields be absent or null, and nullable fields null', () => {
    const { note: _note, ...withoutNote } = example('widget.made');
    expect(validatePayload('widget.made', withoutNote)).toEqual([]);
    expect(validatePayload('widget.made', { ...withoutNote, note: null, weight: null })).toEqual([]);
  });

  it('rejects unknown types', () => {
    expect(validatePayload('foo.bar', {})).toEqual(["unknown event type 'foo.bar'"]);
  });

  it('checks UTC timestamps strictly', () => {
    expect(isUtcDateTime('2026-01-01T00:00:00.000Z')).toBe(true);
    expect(isUtcDateTime('2028-02-29T23:59:59Z')).toBe(true);
    expect(isUtcDateTime('2026-01-01T24:00:00Z')).toBe(false);
    expect(isUtcDateTime('2026-01-01T00:00:00+02:00')).toBe(false);
  });
});

describe('event filters', () => {
  it('accepts *, exact types and wildcards of known groups; lists the rest', () => {
    expect(parseEventFilter(['*', 'widget.*', 'gadget.pinged'])).toEqual({ ok: true });
    expect(parseEventFilter([])).toEqual({ ok: true });
    expect(parseEventFilter(['widget.*', 'widget', 'widget.nope', 'doohickey.*', '', 'widget.**'])).toEqual({
      ok: false,
      invalid: ['widget', 'widget.nope', 'doohickey.*', '', 'widget.**'],
    });
  });

  it('matches types', () => {
    expect(matchesEventFilter(['*'], 'room.created')).toBe(true);
    expect(matchesEventFilter(['session.*'], 'session.ended')).toBe(true);
    expect(matchesEventFilter(['session.*'], 'campaign.started')).toBe(false);
    expect(matchesEventFilter(['session.*'], 'sessions.x')).toBe(false);
    expect(matchesEventFilter(['session.ended'], 'session.ended')).toBe(true);
    expect(matchesEventFilter(['session.ended'], 'session.failed')).toBe(false);
    expect(matchesEventFilter(['campaign.created', 'room.*'], 'room.failed')).toBe(true);
    expect(matchesEventFilter([], 'room.failed')).toBe(false);
  });
});

describe('orderPayloadKeys', () => {
  it('puts schema keys first, in schema order (nested entries too), then unknown keys', () => {
    const data = { zeta: 1, parts: [{ count: 2, name: 'nut' }], widget_id: 'w' };
    expect(JSON.stringify(orderPayloadKeys('widget.made', data))).toBe(
      '{"widget_id":"w","parts":[{"name":"nut","count":2}],"zeta":1}',
    );
    expect(Object.keys(data)).toEqual(['zeta', 'parts', 'widget_id']);
  });

  it('keeps the order of unknown types', () => {
    expect(Object.keys(orderPayloadKeys('internal.thing', { b: 1, a: 2 }))).toEqual(['b', 'a']);
  });
});

describe('envelope', () => {
  const event = {
    id: '0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71',
    type: 'widget.scrapped',
    data: { scrapped_at: '2026-01-01T00:00:00.000Z', widget_id: 'wid_1' },
    metadata: { created_at: '2026-01-01T00:00:00.123Z', tenant_id: 'ten_1' },
  };

  it('serialises in a fixed order, data keys in schema order', () => {
    expect(serializeEnvelope(catalog, toEnvelope(catalog, event))).toBe(
      '{"id":"0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71","type":"widget.scrapped","tenant_id":"ten_1","created_at":"2026-01-01T00:00:00.123Z","data":{"widget_id":"wid_1","scrapped_at":"2026-01-01T00:00:00.000Z"}}',
    );
  });

  it('refuses an event without a tenant', () => {
    expect(() => toEnvelope(catalog, { ...event, metadata: { ...event.metadata, tenant_id: null } })).toThrow(
      /tenant_id/,
    );
  });

  it('documents a valid example delivery of a catalog type only', () => {
    const envelope = exampleEnvelope(catalog, 'widget.made');
    expect(validatePayload(envelope.type, envelope.data)).toEqual([]);
    expect(() => exampleEnvelope(catalog, 'foo.bar')).toThrow(/Unknown catalog type/);
  });
});

describe('OpenAPI webhooks and docs', () => {
  it('has one POST per type, in catalog order, tagged with its group title', () => {
    const webhooks = buildOpenApiWebhooks(catalog);
    expect(Object.keys(webhooks)).toEqual([...catalog.types]);
    const op = (webhooks['gadget.pinged'] as { post: Record<string, unknown> }).post;
    expect(op['tags']).toEqual(['Gadget events']);
    expect(op['description']).toBe('A gadget answered a ping.');
  });

  it('renders every group under its title, in group order, each type with its fields', () => {
    const doc = renderEventsMarkdown(catalog);
    const headings = [...doc.matchAll(/^##+ (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(-5)).toEqual([
      'Widget events',
      '`widget.made`',
      '`widget.scrapped`',
      'Gadget events',
      '`gadget.pinged`',
    ]);
    expect(doc).toContain('| `parts[].count` | integer (0 or more) | no | no |  |');
    expect(doc).toContain('A complete `widget.made` delivery body');
  });
});

// Compile-time checks: a fragment cannot drift from its payload types.
export function driftingFragments(): unknown[] {
  return [
    defineEvents<GadgetPayloads>({
      groups: { gadget: 'Gadget events' },
      events: {
        'gadget.pinged': {
          description: 'x',
          // @ts-expect-error: the schema describes another payload
          payload: widgetScrapped,
          // @ts-expect-error: the example lacks pinged_at
          example: { gadget_id: 'g' },
        },
      },
    }),
    defineEvents<WidgetPayloads>({
      // @ts-expect-error: every group needs a title
      groups: {},
      // @ts-expect-error: widget.scrapped is not defined
      events: {
        'widget.made': { description: 'x', payload: widgetMade, example: example('widget.made') as never },
      },
    }),
  ];
}

// The typed union over several fragments, as app.module.ts derives it for the platform.
export function typedProducer(emit: (event: EventsOf<MergedPayloads<WidgetPayloads | GadgetPayloads>>) => void): void {
  emit({ type: 'gadget.pinged', data: { gadget_id: 'g', pinged_at: '2026-01-01T00:00:00.000Z' } });
  // @ts-expect-error: data of another type
  emit({ type: 'widget.scrapped', data: { gadget_id: 'g', pinged_at: '2026-01-01T00:00:00.000Z' } });
}
