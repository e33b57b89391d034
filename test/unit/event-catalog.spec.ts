/**
 * The platform's assembled catalog (every context's fragment, app.module.ts): the published types, their
 * schemas, docs/events.md and the OpenAPI webhooks. The registry's own mechanics are tested with a
 * small fragment in src/catalog/event-catalog.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventCatalog } from '../../src/app.module';
import type { CatalogEvent, CatalogEventType, CatalogPayloads } from '../../src/app.module';
import { isUtcDateTime } from '../../src/catalog/event-catalog';
import { exampleEnvelope, serializeEnvelope, toEnvelope } from '../../src/catalog/envelope';
import type { EventEnvelope } from '../../src/catalog/envelope';
import { buildOpenApiWebhooks } from '../../src/catalog/openapi-webhooks';
import { renderEventsMarkdown } from '../../src/catalog/events-doc';
import { EVENTS_DOC_PATH, writeEventsDoc } from '../../src/cli/generate-events-doc';
import { EVENT_TYPES_SNAPSHOT_PATH, renderEventTypesSnapshot } from '../../src/catalog/event-types-snapshot';
import { EVENT_TYPES } from './event-types.generated';

const {
  entries: EVENT_CATALOG,
  types: CATALOG_EVENT_TYPES,
  entry: catalogEntry,
  isCatalogType,
  orderPayloadKeys,
  parseEventFilter,
  validatePayload,
} = eventCatalog;

/**
 * The public event types: a snapshot generated from the registered contexts (`npm run
 * docs:generate`), so that a change of the public catalog is a reviewed change of that file (and of
 * docs/events.md), while adding a context edits no list here.
 */
const PUBLIC_TYPES = EVENT_TYPES satisfies readonly CatalogEventType[];

const REPO_ROOT = resolve(__dirname, '../..');

function example<K extends keyof CatalogPayloads>(type: K): Record<string, unknown> {
  const entry = catalogEntry(type);
  if (entry === undefined) throw new Error(`missing ${type}`);
  return structuredClone({ ...entry.example });
}

function without(data: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...data };
  delete copy[key];
  return copy;
}

describe('event catalog', () => {
  it('holds exactly the public types of the generated snapshot, in its order', () => {
    for (const type of PUBLIC_TYPES) expect(isCatalogType(type)).toBe(true);
    expect([...CATALOG_EVENT_TYPES]).toEqual([...PUBLIC_TYPES]);
    expect(new Set(CATALOG_EVENT_TYPES).size).toBe(CATALOG_EVENT_TYPES.length);
    expect(isCatalogType('session.nope')).toBe(false);
    expect(catalogEntry('nope')).toBeUndefined();
  });

  it('describes every type with a closed object schema and a group', () => {
    for (const entry of EVENT_CATALOG) {
      expect(entry.group).toBe(entry.type.split('.')[0]);
      expect(entry.description.length).toBeGreaterThan(10);
      expect(entry.schema.type).toBe('object');
      expect(entry.schema.additionalProperties).toBe(false);
      const properties = Object.keys(entry.schema.properties ?? {});
      for (const name of entry.schema.required ?? []) expect(properties).toContain(name);
    }
  });

  it('keeps the published field order (docs/events.md)', () => {
    expect(Object.keys(catalogEntry('session.created')?.schema.properties ?? {})).toEqual([
      'session_id',
      'to_number',
      'from_number',
      'campaign_id',
      'contact_id',
      'voice_id',
      'status',
    ]);
    const ended = Object.keys(catalogEntry('session.ended')?.schema.properties ?? {});
    // session.failed has the same fields, and with status voicemail whether a message was left, last.
    expect([...ended, 'voicemail_message_left']).toEqual(
      Object.keys(catalogEntry('session.failed')?.schema.properties ?? {}),
    );
    expect(ended.slice(10, 14)).toEqual(['status', 'end_reason', 'started_at', 'ended_at']);
    expect(ended.at(-1)).toBe('function_invocations');
  });

  it('marks ? fields optional and nullable, listed fields required', () => {
    const created = catalogEntry('session.created')?.schema;
    expect(created?.required).toEqual(['session_id', 'to_number', 'from_number', 'voice_id', 'status']);
    expect(created?.properties?.['campaign_id']?.type).toEqual(['string', 'null']);
    expect(created?.properties?.['to_number']?.type).toEqual(['string', 'null']);
    expect(catalogEntry('session.ended')?.schema.required).toContain('started_at');
    expect(catalogEntry('session.failed')?.schema.required).not.toContain('started_at');
  });
});

describe('validatePayload', () => {
  it('accepts every catalog example', () => {
    for (const entry of EVENT_CATALOG)
      expect([entry.type, validatePayload(entry.type, entry.example)]).toEqual([entry.type, []]);
  });

  it('accepts every example payload shown in docs/events.md', () => {
    const blocks = [
      ...renderEventsMarkdown(eventCatalog).matchAll(
        /### `([a-z_.]+)`[\s\S]*?Example `data`:\n\n```json\n([\s\S]*?)\n```/g,
      ),
    ];
    expect(blocks).toHaveLength(EVENT_CATALOG.length);
    for (const [, type, body] of blocks) {
      expect([type, validatePayload(type ?? '', JSON.parse(body ?? 'null'))]).toEqual([type, []]);
    }
  });

  it('reports a missing required field', () => {
    expect(validatePayload('session.created', without(example('session.created'), 'session_id'))).toEqual([
      "data must have required property 'session_id'",
    ]);
    expect(validatePayload('session.ended', without(example('session.ended'), 'started_at'))).toEqual([
      "data must have required property 'started_at'",
    ]);
  });

  it('reports a value outside an enum', () => {
    expect(validatePayload('session.created', { ...example('session.created'), status: 'done' })).toEqual([
      'data/status must be equal to one of the allowed values',
    ]);
    expect(validatePayload('session.failed', { ...example('session.failed'), status: 'completed' })).toEqual([
      'data/status must be equal to one of the allowed values',
    ]);
    expect(
      validatePayload('campaign.contact_skipped', { ...example('campaign.contact_skipped'), skip_reason: 'nope' }),
    ).toEqual(['data/skip_reason must be equal to one of the allowed values']);
    expect(
      validatePayload('voice_clone.training_failed', { ...example('voice_clone.training_failed'), error_code: 'x' }),
    ).toEqual(['data/error_code must be equal to one of the allowed values']);
    expect(validatePayload('campaign.resumed', { ...example('campaign.resumed'), reason: 'auto' })).toEqual([
      'data/reason must be equal to one of the allowed values',
    ]);
  });

  it('reports an extra property', () => {
    expect(validatePayload('webhook.test', { ...example('webhook.test'), extra: 1 })).toEqual([
      "data must NOT have additional properties: 'extra'",
    ]);
  });

  it('reports bad timestamps', () => {
    for (const bad of [
      '2026-01-01',
      '2026-01-01 00:00:00Z',
      '2026-01-01T00:00:00+02:00',
      '2026-02-30T00:00:00Z',
      'soon',
    ]) {
      expect(validatePayload('webhook.test', { ...example('webhook.test'), emitted_at: bad })).toEqual([
        'data/emitted_at must match format "date-time"',
      ]);
    }
    expect(isUtcDateTime('2026-01-01T00:00:00.000Z')).toBe(true);
    expect(isUtcDateTime('2028-02-29T23:59:59Z')).toBe(true);
    expect(isUtcDateTime('2026-01-01T24:00:00Z')).toBe(false);
  });

  it('checks types, ranges and nested entries', () => {
    expect(validatePayload('session.started', { ...example('session.started'), started_at: null })).toEqual([
      'data/started_at must be string',
    ]);
    expect(validatePayload('room.completed', { ...example('room.completed'), duration_seconds: 1.5 })).toEqual([
      'data/duration_seconds must be integer',
    ]);
    expect(
      validatePayload('number.answer_rate_degraded', { ...example('number.answer_rate_degraded'), answer_rate: 1.2 }),
    ).toEqual(['data/answer_rate must be <= 1']);
    const ended = example('session.ended');
    expect(
      validatePayload('session.ended', {
        ...ended,
        transcript: [{ role: 'system', content: null }, { content: 'hi' }],
      }),
    ).toEqual([
      'data/transcript/0/role must be equal to one of the allowed values',
      'data/transcript/0/content must be string',
      "data/transcript/1 must have required property 'role'",
    ]);
    expect(
      validatePayload('session.ended', { ...ended, function_invocations: [{ name: 'f', status: 'succeeded' }] }),
    ).toEqual(["data/function_invocations/0 must have required property 'duration_ms'"]);
    expect(validatePayload('session.created', 'nope')).toEqual(['data must be object']);
  });

  it('lets optional fields be absent or null', () => {
    const created = example('session.created');
    expect(validatePayload('session.created', without(without(created, 'campaign_id'), 'contact_id'))).toEqual([]);
    expect(validatePayload('session.created', { ...created, campaign_id: null, contact_id: null })).toEqual([]);
    const failed = example('session.failed');
    expect(validatePayload('session.failed', without(failed, 'started_at'))).toEqual([]);
    expect(validatePayload('session.failed', without(failed, 'transcript_url'))).toEqual([]);
    expect(
      validatePayload('webhook.endpoint_disabled_notice', {
        ...example('webhook.endpoint_disabled_notice'),
        last_status: null,
      }),
    ).toEqual([]);
  });

  it('accepts a room session with null phone legs', () => {
    const ended = example('session.ended');
    const room = { ...ended, client_reference_id: 'order-1', from_number: null, to_number: null, phone_number: null };
    expect(validatePayload('session.ended', { ...room, campaign_id: null, contact_id: null })).toEqual([]);
  });

  it('allows participant_id and client_reference_id on room events only', () => {
    const extras = { participant_id: 'par_1', client_reference_id: null };
    for (const type of ['room.landing_viewed', 'room.expired', 'room.failed'] as const) {
      expect(validatePayload(type, { ...example(type), ...extras })).toEqual([]);
    }
    expect(validatePayload('room.joined', { ...example('room.joined'), participant_id: null })).toEqual([
      'data/participant_id must be string',
    ]);
    expect(validatePayload('webhook.test', { ...example('webhook.test'), client_reference_id: 'x' })).toHaveLength(1);
  });

  it('rejects unknown types', () => {
    expect(validatePayload('foo.bar', {})).toEqual(["unknown event type 'foo.bar'"]);
  });
});

describe('event filters', () => {
  it('accepts *, exact types and group wildcards', () => {
    expect(parseEventFilter(['*'])).toEqual({ ok: true });
    expect(parseEventFilter(['session.*', 'campaign.resumed', 'voice_clone.*', 'webhook.test'])).toEqual({ ok: true });
    expect(parseEventFilter([])).toEqual({ ok: true });
  });

  it('lists the invalid entries', () => {
    expect(parseEventFilter(['session.*', 'foo.bar', 'session.nope', 'bogus.*', 'session', '', 'session.**'])).toEqual({
      ok: false,
      invalid: ['foo.bar', 'session.nope', 'bogus.*', 'session', '', 'session.**'],
    });
  });
});

describe('orderPayloadKeys', () => {
  it('puts schema keys first, in schema order, then unknown keys in their order', () => {
    const ordered = orderPayloadKeys('session.started', { zeta: 1, started_at: 't', alpha: 2, session_id: 's' });
    expect(Object.keys(ordered)).toEqual(['session_id', 'started_at', 'zeta', 'alpha']);
  });

  it('orders nested transcript and function entries and leaves the input alone', () => {
    const data = {
      transcript: [{ t: 1, content: 'hi', role: 'user' }],
      function_invocations: [{ duration_ms: 3, status: 'succeeded', name: 'f' }],
      session_id: 's',
    };
    const ordered = orderPayloadKeys('session.ended', data);
    expect(JSON.stringify(ordered)).toBe(
      '{"session_id":"s","transcript":[{"role":"user","content":"hi","t":1}],"function_invocations":[{"name":"f","status":"succeeded","duration_ms":3}]}',
    );
    expect(Object.keys(data)).toEqual(['transcript', 'function_invocations', 'session_id']);
  });
});

describe('envelope', () => {
  const event = {
    id: '0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71',
    type: 'session.started',
    data: { started_at: '2026-01-01T00:00:00.000Z', session_id: 'ses_1' },
    metadata: { created_at: '2026-01-01T00:00:00.123Z', tenant_id: 'ten_1' },
  };

  it('is pure and byte-stable', () => {
    const a = serializeEnvelope(eventCatalog, toEnvelope(eventCatalog, event));
    const b = serializeEnvelope(eventCatalog, toEnvelope(eventCatalog, structuredClone(event)));
    expect(a).toBe(b);
    expect(a).toBe(
      '{"id":"0195a1c4-7e2b-7c3d-9f10-4b6a8e2d5c71","type":"session.started","tenant_id":"ten_1","created_at":"2026-01-01T00:00:00.123Z","data":{"session_id":"ses_1","started_at":"2026-01-01T00:00:00.000Z"}}',
    );
    expect(Object.keys(event.data)).toEqual(['started_at', 'session_id']);
  });

  it('serialises a hand-built envelope in the same order', () => {
    const built = toEnvelope(eventCatalog, event);
    const shuffled: EventEnvelope = {
      data: { started_at: built.data['started_at'], session_id: built.data['session_id'] },
      created_at: built.created_at,
      tenant_id: built.tenant_id,
      type: built.type,
      id: built.id,
    };
    expect(serializeEnvelope(eventCatalog, shuffled)).toBe(serializeEnvelope(eventCatalog, built));
    expect(Object.keys(built)).toEqual(['id', 'type', 'tenant_id', 'created_at', 'data']);
  });

  it('documents a valid example delivery', () => {
    const envelope = exampleEnvelope(eventCatalog, 'session.ended');
    expect(validatePayload(envelope.type, envelope.data)).toEqual([]);
  });
});

describe('OpenAPI webhooks', () => {
  it('has one POST per catalog type with the envelope, headers and a 2XX response', () => {
    const webhooks = buildOpenApiWebhooks(eventCatalog);
    expect(Object.keys(webhooks)).toEqual([...CATALOG_EVENT_TYPES]);
    const op = (webhooks['session.ended'] as { post: Record<string, unknown> }).post;
    const schema = (op['requestBody'] as { content: { 'application/json': { schema: Record<string, unknown> } } })
      .content['application/json'].schema;
    const properties = schema['properties'] as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(['id', 'type', 'tenant_id', 'created_at', 'data']);
    expect(properties['type']).toEqual({ type: 'string', const: 'session.ended' });
    expect(properties['data']).toEqual(catalogEntry('session.ended')?.schema);
    const headers = (op['parameters'] as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`);
    expect(headers).toEqual(
      [
        'X-Webhook-Signature',
        'X-Webhook-Timestamp',
        'X-Webhook-Id',
        'X-Webhook-Event',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ].map((h) => `header:${h}`),
    );
    expect(op['responses']).toHaveProperty('2XX');
  });

  it('returns fresh objects that can be mutated safely', () => {
    const first = buildOpenApiWebhooks(eventCatalog);
    (first['webhook.test'] as { post: { summary: string } }).post.summary = 'changed';
    expect((buildOpenApiWebhooks(eventCatalog)['webhook.test'] as { post: { summary: string } }).post.summary).toBe(
      'webhook.test',
    );
  });
});

describe('the event-type snapshot', () => {
  it('is in sync with the catalog (npm run docs:generate regenerates it)', () => {
    const onDisk = readFileSync(resolve(REPO_ROOT, EVENT_TYPES_SNAPSHOT_PATH), 'utf8');
    expect(onDisk).toBe(renderEventTypesSnapshot(eventCatalog));
  });
});

describe('docs/events.md', () => {
  it('is in sync with the catalog (WRITE_EVENTS_DOC=1 regenerates it)', () => {
    if (process.env['WRITE_EVENTS_DOC'] === '1') writeEventsDoc(REPO_ROOT);
    const onDisk = readFileSync(resolve(REPO_ROOT, EVENTS_DOC_PATH), 'utf8');
    expect(onDisk).toBe(renderEventsMarkdown(eventCatalog));
  });

  it('renders deterministically and covers every type', () => {
    const doc = renderEventsMarkdown(eventCatalog);
    expect(renderEventsMarkdown(eventCatalog)).toBe(doc);
    for (const type of CATALOG_EVENT_TYPES) expect(doc).toContain(`### \`${type}\``);
  });
});

// Compile-time checks: producers get typed payloads per type.
export function typedProducer(emit: (event: CatalogEvent) => void): void {
  const at = '2026-01-01T00:00:00.000Z';
  emit({ type: 'webhook.test', data: { endpoint_id: 'we_1', emitted_at: at } });
  emit({ type: 'campaign.resumed', data: { campaign_id: 'c', resumed_at: at, reason: 'manual' } });
  // @ts-expect-error: reason is a closed set
  emit({ type: 'campaign.resumed', data: { campaign_id: 'c', resumed_at: at, reason: 'auto' } });
  // @ts-expect-error: data of another type
  emit({ type: 'webhook.test', data: { campaign_id: 'c', started_at: at } });
}

// Compile-time check: the typed union derived from the contexts has no type beyond the snapshot (and the
// `satisfies` above, none fewer), which the first test holds equal to the runtime catalog's types.
type Never<T extends never> = T;
export type NoUntypedCatalogType = Never<Exclude<CatalogEventType, (typeof PUBLIC_TYPES)[number]>>;
