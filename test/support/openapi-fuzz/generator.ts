// The request generator: request #i from its own PRNG, a valid request with one part (or two or three)
// made hostile, addressing the world's real resources.

import type { InjectOptions } from 'fastify';
import type { CreatedTenant } from '../app';
import type { Operation, Schema } from './document';
import {
  CONTENT_TYPES,
  encode,
  HOSTILE_NUMBERS,
  HOSTILE_STRINGS,
  hostileBody,
  hostileValue,
  type Json,
  LONG,
  nested,
  RAW_NUMBER_TOKENS,
  RAW_SEGMENTS,
} from './hostile';
import { requestSeed, Rng } from './rng';

// The world the fuzzer addresses: real resources of two tenants.

export interface World {
  a: CreatedTenant;
  b: CreatedTenant;
  /** The tenant the operator routes act on (see the header: never `a`). */
  target: CreatedTenant;
  targetPrefix: string;
  endpointA: string;
  /** The endpoint DELETE /v1/webhook_endpoints/{id} deletes (replaced after each deletion). */
  disposableEndpoint: string;
  endpointB: string;
  deletedEndpoint: string;
  sessionA: string;
  /** A room of each tenant (GET /v1/rooms/{room_id}, starting_after). */
  roomA: string;
  roomB: string;
  sessionB: string;
  /** Inbound numbers of tenants a and b; DELETE /v1/phone_numbers/{id} releases the disposable one (once). */
  numberA: string;
  disposableNumber: string;
  numberB: string;
  recordingFile: string;
  /** The query of the recording's URL (a signed link carries its signature there). */
  recordingQuery: Map<string, string>;
  deliveryA: string;
  deliveryB: string;
  eventA: string;
  eventB: string;
  idemKeys: string[];
}

export type Method = NonNullable<InjectOptions['method']>;

export interface FuzzRequest {
  index: number;
  operation: string;
  options: InjectOptions & { method: Method; url: string; headers: Record<string, string> };
}

export const PHONE_NUMBERS = [
  '+14155550100',
  '+14155550101',
  '+14155550102',
  '+14155550103',
  '+14155550104',
  '+14155550105',
  '+14155550106',
  '+14155550107',
  '+14155550108',
  '+14155550109',
];

/**
 * Operations are picked uniformly, except a rebuild of the read models: it replays the whole history
 * and locks the tables it refills, so at the weight of the others it alone would double the run time.
 */
export const WEIGHTS: Record<string, number> = { 'POST /admin/v1/projections/rebuild': 0.25 };

export function pickOperation(rng: Rng, operations: readonly Operation[]): Operation {
  const weight = (op: Operation) => WEIGHTS[`${op.method} ${op.path}`] ?? 1;
  let r = rng.float() * operations.reduce((sum, op) => sum + weight(op), 0);
  for (const op of operations) {
    r -= weight(op);
    if (r < 0) return op;
  }
  return operations[operations.length - 1] as Operation;
}

/**
 * The operation request #index of the seed's run goes to: the first draw of its PRNG, as in
 * Generator.generate. Cheap, so that a spec can keep only the requests of its group of operations.
 */
export function operationOf(seed: number, index: number, operations: readonly Operation[]): Operation {
  return pickOperation(new Rng(requestSeed(seed, index)), operations);
}

/** Which parts of a request are made hostile; the others stay valid, so the hostile part goes deep. */
export type Dimension =
  'auth' | 'path' | 'query' | 'field' | 'body' | 'content-type' | 'idempotency' | 'method' | 'url' | 'headers';

export type Path = (string | number)[];

export class Generator {
  constructor(
    private readonly seed: number,
    private readonly world: World,
    private readonly adminToken: string,
    private readonly schemas: Record<string, Schema>,
  ) {}

  generate(index: number, operations: readonly Operation[]): FuzzRequest {
    const rng = new Rng(requestSeed(this.seed, index));
    const op = pickOperation(rng, operations);
    // A fifth of the requests are valid throughout (so the handlers' own paths run under the fuzz's
    // load); the others make one part hostile, sometimes two or three.
    const hostile = new Set<Dimension>();
    if (!rng.chance(0.2)) {
      const candidates: Dimension[] = ['auth', 'query', 'url', 'headers', 'method'];
      if (op.parameters.some((p) => p.in === 'path')) candidates.push('path', 'path', 'path');
      if (op.body) candidates.push('field', 'field', 'field', 'field', 'body', 'content-type');
      else candidates.push('body');
      if (op.method === 'POST') candidates.push('idempotency');
      const n = rng.chance(0.75) ? 1 : rng.pick([2, 2, 3]);
      for (let i = 0; i < n; i++) hostile.add(rng.pick(candidates));
    }

    const method: Method = hostile.has('method')
      ? rng.pick<Method>(['PUT', 'PATCH', 'DELETE', 'POST', 'GET', 'OPTIONS', 'HEAD'])
      : (op.method as Method);
    const headers: Record<string, string> = {};
    this.auth(rng, op, headers, hostile.has('auth'));

    let url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(this.realId(rng, op, method, name)));
    if (hostile.has('path')) {
      const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
      const name = rng.pick(names);
      url = op.path.replace(/\{([^}]+)\}/g, (_, n: string) =>
        n === name ? this.hostileSegment(rng, op, method, n) : encode(this.realId(rng, op, method, n)),
      );
    }
    if (hostile.has('url'))
      url += rng.pick(['/', '//', '/extra', '%00', '.json', '?', '#frag', '/..', '/%2e%2e', ';x']);

    const query: string[] = [];
    for (const p of op.parameters.filter((q) => q.in === 'query')) {
      const signed = this.world.recordingQuery.has(p.name); // mostly kept, or the link is refused
      if (rng.chance(signed ? 0.9 : 0.5)) query.push(`${encode(p.name)}=${encode(this.validQueryValue(rng, p.name))}`);
    }
    // A recording's file name comes with its link's query (a signed link's signature), documented or not.
    if (op.path.includes('{file}') && rng.chance(0.9)) {
      for (const [name, value] of this.world.recordingQuery) {
        if (!op.parameters.some((p) => p.in === 'query' && p.name === name))
          query.push(`${encode(name)}=${encode(value)}`);
      }
    }
    if (hostile.has('query')) query.push(...this.hostileQuery(rng, op));
    if (query.length > 0) url += `${url.includes('?') ? '&' : '?'}${query.join('&')}`;

    if (method === 'POST') {
      const wantsKey = op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      if (hostile.has('idempotency')) headers['idempotency-key'] = this.hostileIdempotencyKey(rng);
      else if (rng.chance(wantsKey ? 0.5 : 0.2)) headers['idempotency-key'] = `fuzz-${rng.hex(8)}`;
    }
    if (hostile.has('headers')) {
      const extra = rng.pick([
        ['request-id', 'req_fake'],
        ['request-id', LONG(500)],
        ['x-request-id', '\u00e9'],
        ['accept', 'text/html'],
        ['accept', 'application/xml'],
        ['accept', '*/*;q=0'],
        ['accept-encoding', 'gzip, br'],
        ['accept-charset', 'utf-16'],
        ['x-forwarded-for', '127.0.0.1, \u00ff'],
        ['x-http-method-override', 'DELETE'],
        ['content-encoding', 'gzip'],
        ['expect', '100-continue'],
        ['cookie', '__proto__=1; session=' + LONG(4000)],
        ['origin', 'null'],
        ['range', 'bytes=0-1,5-'],
        ['if-none-match', '*'],
      ] as const);
      headers[extra[0]] = extra[1];
    }

    const options: FuzzRequest['options'] = { method, url, headers };
    this.body(rng, op, options, hostile);
    return { index, operation: `${op.method} ${op.path}`, options };
  }

  private auth(rng: Rng, op: Operation, headers: Record<string, string>, hostile: boolean): void {
    const admin = op.path.startsWith('/admin/');
    const scoped = admin || op.path.startsWith('/v1/');
    const own = admin ? this.adminToken : this.world.a.api_key;
    if (!hostile) {
      if (scoped || rng.chance(0.3)) headers['authorization'] = `Bearer ${own}`;
      return;
    }
    const a = this.world.a.api_key;
    const value = rng.pick([
      null,
      `Bearer ${this.world.b.api_key}`,
      `Bearer ${admin ? a : this.adminToken}`,
      'Bearer',
      'Bearer ',
      `bearer ${own}`,
      `BEARER\t${own}`,
      `Bearer ${own}x`,
      `Bearer ${own} extra`,
      `Bearer  ${own}  `,
      `Bearer ${a.slice(0, 17)}`,
      `Bearer ${a.slice(0, 17)}${LONG(43, 'A')}`,
      `Bearer ${a.replace(/^vap_/, 'VAP_')}`,
      `Basic ${Buffer.from(`${own}:`).toString('base64')}`,
      'Bearer vap_',
      'Bearer vap__',
      'Bearer vap_\u00e9\u00e9\u00e9_x',
      `Bearer ${LONG(10_000, 'A')}`,
      `Bearer ${LONG(300, '%')}`,
      `Token ${own}`,
      `, Bearer ${own}`,
      `Bearer ${own}, Bearer ${own}`,
    ]);
    if (value !== null) headers['authorization'] = value;
  }

  private hostileIdempotencyKey(rng: Rng): string {
    // Shared keys come back with other bodies and paths (a 422) and with the same ones (a replay).
    if (rng.chance(0.6)) return rng.pick(this.world.idemKeys);
    return rng.pick([
      '',
      ' ',
      LONG(255, 'k'),
      LONG(256, 'k'),
      LONG(5000, 'k'),
      '\u00e9\u00ff',
      '"quoted"',
      '\t',
      'a b',
      '%00',
    ]);
  }

  /** A path parameter: another tenant's id, an id of another kind, a hostile value, an encoding oddity. */
  private hostileSegment(rng: Rng, op: Operation, method: Method, name: string): string {
    const r = rng.float();
    if (r < 0.25) return encode(rng.pick(this.otherIds(op)));
    if (r < 0.6) return encode(rng.pick(HOSTILE_STRINGS));
    if (r < 0.8) return rng.pick(RAW_SEGMENTS);
    const real = encode(this.realId(rng, op, method, name));
    return rng.pick([
      real.toUpperCase(),
      `${real}%00`,
      `${real}%2F`,
      `${real}%20`,
      `%20${real}`,
      `${real}.`,
      `${real};`,
      `${real}%3B`,
      real.slice(0, -1),
      real + real,
      real.replace(/_/g, '%5F'),
      real.replace(/_/g, '%5f'),
      `${real}%E2%80%8B`,
    ]);
  }

  private realId(rng: Rng, op: Operation, method: Method, name: string): string {
    const w = this.world;
    switch (name) {
      case 'tenantId':
        return rng.chance(0.9) ? w.target.tenant_id : w.b.tenant_id;
      case 'keyPrefix':
        return w.targetPrefix;
      case 'deliveryId':
        return w.deliveryA;
      case 'file':
        return w.recordingFile;
      case 'phoneNumber':
        return rng.pick(PHONE_NUMBERS);
      case 'room_id':
        return w.roomA;
      case 'id':
        if (op.path.startsWith('/v1/sessions/')) return w.sessionA;
        if (op.path.startsWith('/v1/phone_numbers/')) return method === 'DELETE' ? w.disposableNumber : w.numberA;
        // A DELETE (also one sent to another operation's path) deletes the disposable endpoint.
        return method === 'DELETE' ? w.disposableEndpoint : w.endpointA;
      default:
        return rng.pick(this.otherIds(op));
    }
  }

  /** Real ids of every kind and of both tenants; never the fuzzed tenant's own id on operator routes. */
  private otherIds(op: Operation): string[] {
    const w = this.world;
    return [
      w.endpointA,
      w.endpointB,
      w.deletedEndpoint,
      w.sessionA,
      w.sessionB,
      w.numberA,
      w.numberB,
      w.roomA,
      w.roomB,
      w.deliveryA,
      w.deliveryB,
      w.eventA,
      w.eventB,
      w.b.tenant_id,
      w.target.tenant_id,
      w.targetPrefix,
      w.recordingFile,
      w.recordingFile.replace(/\.wav$/, ''),
      ...(op.path.startsWith('/admin/') ? [] : [w.a.tenant_id]),
    ];
  }

  private validQueryValue(rng: Rng, name: string): string {
    const w = this.world;
    switch (name) {
      case 'limit':
        return rng.pick(['1', '2', '20', '50', '100']);
      case 'type':
        return rng.pick(['session.ended', 'session.created', 'webhook.test', 'credits.depleted']);
      case 'after':
        return w.eventA;
      case 'status':
        return rng.pick(['queued', 'completed', 'in_progress', 'failed', 'no_answer']);
      case 'campaign_id':
        return `cmp_${rng.hex(10)}`;
      case 'starting_after':
        return w.sessionA;
      default:
        return w.recordingQuery.get(name) ?? `value-${rng.hex(3)}`;
    }
  }

  private hostileQuery(rng: Rng, op: Operation): string[] {
    const declared = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    const name =
      declared.length > 0 && rng.chance(0.8)
        ? rng.pick(declared)
        : rng.pick(['unknown', '__proto__', 'constructor', 'wait', 'limit', '']);
    const key = rng.chance(0.9)
      ? encode(name)
      : rng.pick([`${encode(name)}[]`, `${encode(name)}[0]`, encode(name.toUpperCase()), `${encode(name)}%00`]);
    const value = () => {
      const r = rng.float();
      if (r < 0.2) return encode(rng.pick(this.otherIds(op)));
      if (r < 0.35) return encode(this.validQueryValue(rng, name));
      if (r < 0.75) return encode(rng.pick(HOSTILE_STRINGS));
      if (r < 0.85)
        return encode(rng.pick(['0', '101', '-1', '1.5', '1e2', '0x10', ' 5', '9'.repeat(30), 'NaN', 'Infinity']));
      return rng.pick(RAW_SEGMENTS);
    };
    const r = rng.float();
    if (r < 0.05) return [key];
    if (r < 0.1) return [`${key}=`];
    if (r < 0.2) return [`${key}=${value()}`, `${key}=${value()}`];
    if (r < 0.25)
      return [rng.pick(['%', '%zz=1', '=', '&&', 'a[b]=1', `${encode('\u00e9')}=1`, '%ED%A0%80=1', 'a=%ED%A0%80'])];
    return [`${key}=${value()}`];
  }

  private body(rng: Rng, op: Operation, options: FuzzRequest['options'], hostile: Set<Dimension>): void {
    if (hostile.has('body')) {
      options.payload = hostileBody(rng);
    } else if (op.body) {
      const value = this.fromSchema(rng, op.body, '');
      options.payload = hostile.has('field') ? this.mutate(rng, op.body, value) : JSON.stringify(value);
    } else {
      return;
    }
    if (!hostile.has('content-type') && !(hostile.has('body') && rng.chance(0.3))) {
      options.headers['content-type'] = 'application/json';
      return;
    }
    if (rng.chance(0.1)) return; // a body without any content type
    options.headers['content-type'] = rng.pick(CONTENT_TYPES);
  }

  private resolve(schema: Schema): Schema {
    if (!schema.$ref) return schema;
    return this.schemas[schema.$ref.replace('#/components/schemas/', '')] ?? {};
  }

  /** A valid value of `schema` (for field `name`). */
  private fromSchema(rng: Rng, raw: Schema, name: string): Json {
    const schema = this.resolve(raw);
    if (schema.enum && schema.enum.length > 0) return schema.enum[rng.int(schema.enum.length)] as Json;
    switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
      case 'object': {
        const out: Record<string, Json> = {};
        const required = new Set(schema.required ?? []);
        for (const [prop, propSchema] of Object.entries(schema.properties ?? {})) {
          if (required.has(prop) || rng.chance(0.5)) out[prop] = this.fromSchema(rng, propSchema, prop);
        }
        return out;
      }
      case 'array': {
        const n = rng.pick([1, 1, 2, 3]);
        return Array.from({ length: n }, () => this.fromSchema(rng, schema.items ?? {}, name));
      }
      case 'integer':
      case 'number':
        if (name === 'amount_cents') return rng.pick([5000, 1, -1, 250, -250]);
        if (typeof schema.example === 'number') return schema.example;
        return (
          (schema.minimum ?? 0) + rng.int((schema.maximum ?? (schema.minimum ?? 0) + 100) - (schema.minimum ?? 0) + 1)
        );
      case 'boolean':
        return rng.chance(name === 'test_mode' ? 0.8 : 0.5);
      case 'string':
        return this.validString(rng, name, schema);
      default:
        return `value-${rng.hex(3)}`;
    }
  }

  private validString(rng: Rng, name: string, schema: Schema): string {
    switch (name) {
      case 'url':
        return rng.pick([
          `http://127.0.0.1:9/hooks/${rng.hex(4)}`,
          'http://localhost:9/hooks',
          'http://[::1]:9/hooks',
          'https://127.0.0.1:9/',
        ]);
      case 'events':
        return rng.pick(['*', 'session.*', 'session.ended', 'webhook.test', 'campaign.completed', 'credits.*']);
      case 'to':
        // Mostly the test pool's short scenarios: a whole conversation is many events, each delivered.
        return rng.chance(0.2) ? rng.pick(PHONE_NUMBERS) : rng.pick(['+14155550101', '+14155550102', '+14155550104']);
      case 'phone_number':
        return rng.pick(PHONE_NUMBERS);
      case 'from':
        return rng.pick(['+14155550199', '+14155550000', '+442071838750']);
      case 'since':
        return rng.pick([
          '2026-01-01T00:00:00Z',
          new Date(Date.now() - 60_000).toISOString(),
          '2020-02-29T12:00:00.5+05:30',
        ]);
      case 'code':
        return rng.pick(['appointment_booked', 'callback', 'x', LONG(64, 'a')]);
      case 'projection':
        return rng.pick(['tenants', 'sessions', 'audit_events', 'dnc_numbers']);
      case 'email':
        return rng.pick(['ops@example.com', 'a@b.co']);
      case 'name':
        return rng.pick(['Fuzz Co', 'Ω', 'x']);
      case 'prompt':
        return rng.pick(['You are a helpful agent.', 'Hi', LONG(20_000, 'p')]);
      case 'description':
        return rng.pick(['CRM', 'The caller booked an appointment.', '']);
      default:
        return typeof schema.example === 'string' ? schema.example : `value-${rng.hex(3)}`;
    }
  }

  /** The valid `value` with one field (or two) made hostile, serialized, sometimes with a raw-text twist. */
  private mutate(rng: Rng, schema: Schema, value: Json): string {
    const paths = this.paths(value, []);
    const edits = rng.chance(0.8) ? 1 : 2;
    let raw: { marker: string; token: string } | null = null;
    for (let i = 0; i < edits; i++) {
      const path = rng.pick(paths);
      const r = rng.float();
      if (r < 0.35) this.set(value, path, hostileValue(rng));
      else if (r < 0.55) this.set(value, path, this.sameTypeHostile(rng, this.schemaAt(schema, path)));
      else if (r < 0.63) this.set(value, path, null);
      else if (r < 0.7) this.remove(value, path);
      else if (r < 0.76) this.set(value, path, [this.get(value, path) ?? null]);
      else if (r < 0.8) this.set(value, path, String(JSON.stringify(this.get(value, path))));
      else if (r < 0.88) {
        // A prototype or unknown key next to the field (JSON.stringify writes an own __proto__).
        const parent = this.get(value, path.slice(0, -1));
        if (parent && typeof parent === 'object' && !Array.isArray(parent)) {
          const key = rng.pick(['__proto__', 'constructor', 'prototype', 'unknown', 'tenant_id', 'id', 'status', '']);
          Object.defineProperty(parent, key, {
            value: hostileValue(rng),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      } else if (r < 0.94) {
        raw = { marker: `\u0001raw${i}\u0001`, token: rng.pick(RAW_NUMBER_TOKENS) };
        this.set(value, path, raw.marker);
      } else {
        this.set(value, path, nested(rng.pick([31, 32, 33, 200]), rng.chance(0.5)));
      }
    }
    let text = JSON.stringify(value) ?? '';
    if (raw) text = text.replace(JSON.stringify(raw.marker), raw.token);
    const twist = rng.float();
    if (twist < 0.1 && text.startsWith('{')) {
      // A duplicate key: JSON.parse keeps the last.
      const top = Object.keys(this.resolve(schema).properties ?? {});
      const key = top.length > 0 ? rng.pick(top) : 'a';
      text = `{${JSON.stringify(key)}:${JSON.stringify(hostileValue(rng))}${text.length > 2 ? ',' : ''}${text.slice(1)}`;
    } else if (twist < 0.15) {
      text = rng.pick([` ${text} `, `\ufeff${text}`, `${text}\n`, `[${text}]`, `${text},`, `${text}${text}`]);
    }
    return text;
  }

  /** Every path in a JSON value (object keys and array indexes), the root excepted. */
  private paths(value: Json, prefix: Path): Path[] {
    if (value === null || typeof value !== 'object') return prefix.length > 0 ? [prefix] : [];
    const children: Path[] = Array.isArray(value)
      ? value.flatMap((item, i) => this.paths(item, [...prefix, i]))
      : Object.entries(value).flatMap(([k, item]) => this.paths(item, [...prefix, k]));
    return prefix.length > 0 ? [prefix, ...children] : children.length > 0 ? children : [['a']];
  }

  private get(value: Json, path: Path): Json | undefined {
    let cur: Json | undefined = value;
    for (const key of path) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = (cur as Record<string | number, Json>)[key];
    }
    return cur;
  }

  private set(value: Json, path: Path, next: Json): void {
    const parent = this.get(value, path.slice(0, -1));
    if (parent !== null && typeof parent === 'object')
      (parent as Record<string | number, Json>)[path[path.length - 1] as string] = next;
  }

  private remove(value: Json, path: Path): void {
    const parent = this.get(value, path.slice(0, -1));
    const key = path[path.length - 1];
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else if (parent !== null && typeof parent === 'object') delete (parent as Record<string, Json>)[String(key)];
  }

  private schemaAt(schema: Schema, path: Path): Schema {
    let cur = this.resolve(schema);
    for (const key of path) {
      cur = this.resolve(typeof key === 'number' ? (cur.items ?? {}) : (cur.properties?.[key] ?? {}));
    }
    return cur;
  }

  private sameTypeHostile(rng: Rng, schema: Schema): Json {
    switch (schema.type) {
      case 'string':
        return rng.pick(HOSTILE_STRINGS);
      case 'integer':
      case 'number':
        return rng.pick(HOSTILE_NUMBERS);
      case 'boolean':
        return rng.pick(['true', 1, 0, 'yes', 'false', '']);
      case 'array':
        return rng.pick([
          [],
          Array.from({ length: 101 }, () => 'session.*'),
          Array.from({ length: 51 }, () => ({ code: 'x', description: 'y' })),
          [null],
          [1],
          [[]],
          [''],
          ['*', '*'],
        ]);
      case 'object':
        return rng.pick<Json>([{}, [], 'object', { a: 1 }]);
      default:
        return hostileValue(rng);
    }
  }
}
