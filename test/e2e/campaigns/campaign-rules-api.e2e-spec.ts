/**
 * The campaigns API's refusals end to end, on the real service process: 409 for every change a
 * campaign's state does not allow, a 4xx with the error body of docs/api.md (never a 5xx) for every
 * malformed body, 404 for unknown and other tenants' ids, and the lists' pagination and filters.
 */
import { ALWAYS, campaignTenant, CampaignTenant, contactsFor, FROM } from '../../support/campaigns-harness';
import { CallsService, rawPost, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { ApiResponse } from '../../support/webhooks-harness';

jest.setTimeout(60_000);

let h: CallsService;
let t: CampaignTenant;
let other: CampaignTenant;

beforeAll(async () => {
  h = await startCallsService({ SIM_TIME_SCALE: '0.01', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  [t, other] = await Promise.all([campaignTenant(h, 'Requests Co'), campaignTenant(h, 'Other Co')]);
});

afterAll(() => stopCallsSuite(h));

const valid = (extra: Record<string, unknown> = {}) => ({
  name: 'Valid',
  from_number: FROM,
  test_mode: true,
  settings: { quiet_hours: ALWAYS },
  contacts: contactsFor(['+14155550100']),
  ...extra,
});

/** The error body (docs/api.md), with this status and type, and this param when one is given (null: none asserted). */
function expectError(res: ApiResponse, status: number, type: string, param: string | null = null): void {
  const error = res.body?.error;
  expect([res.status, error?.type, param === null ? param : error?.param, res.text]).toEqual([
    status,
    type,
    param,
    res.text,
  ]);
  expect(res.body).toEqual({
    error: expect.objectContaining({ type, message: expect.any(String), request_id: expect.any(String) }),
  });
  for (const key of Object.keys(error)) expect(['type', 'message', 'param', 'request_id']).toContain(key);
}

const status = async (id: string) => (await t.api('GET', `/v1/campaigns/${id}`)).body.status as string;

describe('state conflicts (409)', () => {
  it('a draft cannot be paused or resumed; a campaign starts once', async () => {
    const draft = await t.create(valid({ contacts: contactsFor(['+14155550104']) }), true);
    const id = draft.campaign_id;
    expectError(await t.api('POST', `/v1/campaigns/${id}/pause`), 409, 'conflict');
    expectError(await t.api('POST', `/v1/campaigns/${id}/resume`), 409, 'conflict');
    expect(await status(id)).toBe('draft');
    const start = await t.api('POST', `/v1/campaigns/${id}/start`);
    expect([start.status, start.body.status]).toEqual([200, 'running']);
    expectError(await t.api('POST', `/v1/campaigns/${id}/start`), 409, 'conflict');
  });

  it('a running campaign takes no contacts and cannot be resumed or started', async () => {
    const running = await t.create(
      valid({
        settings: { quiet_hours: ALWAYS, max_concurrency: 1, max_calls_per_number_per_day: 100 },
        contacts: contactsFor(Array.from({ length: 10 }, () => '+14155550105')),
      }),
    );
    const id = running.campaign_id;
    expect(running.status).toBe('running');
    expectError(
      await t.api('POST', `/v1/campaigns/${id}/contacts`, { contacts: contactsFor(['+14155550100']) }),
      409,
      'conflict',
    );
    expectError(await t.api('POST', `/v1/campaigns/${id}/resume`), 409, 'conflict');
    expectError(await t.api('POST', `/v1/campaigns/${id}/start`), 409, 'conflict');
    const view = (await t.api('GET', `/v1/campaigns/${id}`)).body;
    expect(view).toMatchObject({ status: 'running', total_contacts: 10 });
    expect((await t.api('POST', `/v1/campaigns/${id}/pause`)).status).toBe(200);
  });

  it('a completed campaign cannot be started, paused, resumed or given contacts', async () => {
    const done = await t.create(valid({ contacts: contactsFor(['+14155550104']) }));
    const id = done.campaign_id;
    await eventually(async () => (await status(id)) === 'completed');
    for (const action of ['start', 'pause', 'resume'])
      expectError(await t.api('POST', `/v1/campaigns/${id}/${action}`), 409, 'conflict');
    expectError(
      await t.api('POST', `/v1/campaigns/${id}/contacts`, { contacts: contactsFor(['+14155550100']) }),
      409,
      'conflict',
    );
    expect(await status(id)).toBe('completed');
  });
});

/** [what, body, param]: each a 400 `invalid_request`; a null param is not asserted (a body that is no object). */
type Case = [string, unknown, string | null];
const many = (n: number) => contactsFor(Array.from({ length: n }, () => '+14155550100'));

/** Contacts that POST /v1/campaigns, /v1/campaigns/run and /v1/campaigns/{id}/contacts all refuse. */
const contactCases: Case[] = [
  ['contacts not an array', { contacts: 'everyone' }, 'contacts'],
  ['contacts an object', { contacts: { phone_number: '+14155550100' } }, 'contacts'],
  ['a contact that is not an object', { contacts: [42] }, 'contacts[0]'],
  ['a contact that is null', { contacts: [null] }, 'contacts[0]'],
  ['a contact without phone_number', { contacts: [{ first_name: 'Ada' }] }, 'contacts[0].phone_number'],
  ['phone_number a number', { contacts: [{ phone_number: 14155550100 }] }, 'contacts[0].phone_number'],
  ['phone_number empty', { contacts: [{ phone_number: '' }] }, 'contacts[0].phone_number'],
  ['a bad email', { contacts: [...many(1), { phone_number: '+14155550101', email: 'ada@' }] }, 'contacts[1].email'],
  [
    'an unknown timezone',
    { contacts: [...many(2), { phone_number: '+1', timezone: 'Mars/Olympus' }] },
    'contacts[2].timezone',
  ],
  ['an empty timezone', { contacts: [{ phone_number: '+14155550100', timezone: '' }] }, 'contacts[0].timezone'],
  [
    'a timezone that is not a string',
    { contacts: [{ phone_number: '+14155550100', timezone: 1 }] },
    'contacts[0].timezone',
  ],
  [
    'an unknown field in a contact',
    { contacts: [{ phone_number: '+14155550100', nickname: 'A' }] },
    'contacts[0].nickname',
  ],
  ['1,001 contacts', { contacts: many(1001) }, 'contacts'],
  ['a JSON array', [{ contacts: many(1) }], null],
];

const createCases: Case[] = [
  ['no name', { ...valid(), name: undefined }, 'name'],
  ['a name that is not a string', valid({ name: 42 }), 'name'],
  ['an empty name', valid({ name: '' }), 'name'],
  ['a name of 201 characters', valid({ name: 'n'.repeat(201) }), 'name'],
  ['no from_number', { ...valid(), from_number: undefined }, 'from_number'],
  ['an invalid from_number', valid({ from_number: '+1415555' }), 'from_number'],
  ['from_number a number', valid({ from_number: 14155550000 }), 'from_number'],
  ...contactCases.map(([what, body, param]): Case => [
    what,
    Array.isArray(body) ? body : valid(body as Record<string, unknown>),
    param,
  ]),
  ...[0, 101, 1.5, '5', null].map((n): Case => [
    `max_concurrency ${JSON.stringify(n)}`,
    valid({ settings: { max_concurrency: n } }),
    'settings.max_concurrency',
  ]),
  [
    'quiet_hours start 25:00',
    valid({ settings: { quiet_hours: { start: '25:00', end: '08:00' } } }),
    'settings.quiet_hours.start',
  ],
  [
    'quiet_hours start 7:00',
    valid({ settings: { quiet_hours: { start: '7:00', end: '08:00' } } }),
    'settings.quiet_hours.start',
  ],
  ['quiet_hours without end', valid({ settings: { quiet_hours: { start: '21:00' } } }), 'settings.quiet_hours.end'],
  ['quiet_hours a string', valid({ settings: { quiet_hours: '21:00-08:00' } }), 'settings.quiet_hours'],
  [
    'max_calls_per_number_per_day 0',
    valid({ settings: { max_calls_per_number_per_day: 0 } }),
    'settings.max_calls_per_number_per_day',
  ],
  ['ends_at not a timestamp', valid({ settings: { ends_at: 'tomorrow' } }), 'settings.ends_at'],
  ['ends_at on February 30', valid({ settings: { ends_at: '2099-02-30T10:00:00Z' } }), 'settings.ends_at'],
  ['ends_at a number', valid({ settings: { ends_at: Date.now() + 60_000 } }), 'settings.ends_at'],
  ['ends_at in the past', valid({ settings: { ends_at: '2020-01-01T00:00:00Z' } }), 'settings.ends_at'],
  ['settings not an object', valid({ settings: 'fast' }), 'settings'],
  ['an unknown top-level field', valid({ colour: 'blue' }), 'colour'],
  ['an unknown settings field', valid({ settings: { speed: 3 } }), 'settings.speed'],
  ['test_mode a string', valid({ test_mode: 'yes' }), 'test_mode'],
  ['agent_config without prompt', valid({ agent_config: { voice_id: 'v' } }), 'agent_config.prompt'],
  ['a JSON string', 'campaign', null],
  ['no body', undefined, null],
];

describe('malformed bodies: a 4xx with the error body, never a 5xx, and nothing created', () => {
  let draftId: string;
  let before: number;
  const count = async () => (await t.api('GET', '/v1/campaigns?limit=100')).body.data.length as number;

  beforeAll(async () => {
    draftId = (await t.create(valid(), true)).campaign_id;
    before = await count();
  });

  for (const path of ['/v1/campaigns', '/v1/campaigns/run'])
    it.each(createCases)(`POST ${path} with %s → 400`, async (_what, body, param) => {
      expectError(await t.api('POST', path, body), 400, 'invalid_request', param);
    });

  it.each([
    ...contactCases,
    ['no contacts', {}, 'contacts'],
    ['an unknown top-level field', { contacts: [], colour: 'blue' }, 'colour'],
  ] as Case[])('POST /v1/campaigns/{id}/contacts with %s → 400', async (_what, body, param) => {
    expectError(await t.api('POST', `/v1/campaigns/${draftId}/contacts`, body), 400, 'invalid_request', param);
  });

  it('POST /v1/campaigns/{id}/contacts past 10,000 contacts in the campaign → 422', async () => {
    const thousand = contactsFor(Array.from({ length: 1000 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`));
    const big = await t.create(valid({ contacts: thousand }), true);
    for (let i = 0; i < 9; i++) {
      const res = await t.api('POST', `/v1/campaigns/${big.campaign_id}/contacts`, { contacts: thousand });
      expect([res.status, res.body.total_contacts]).toEqual([200, 2000 + i * 1000]);
    }
    const res = await t.api('POST', `/v1/campaigns/${big.campaign_id}/contacts`, { contacts: many(1) });
    expectError(res, 422, 'unprocessable', 'contacts');
    expect((await t.api('GET', `/v1/campaigns/${big.campaign_id}`)).body.total_contacts).toBe(10_000);
    before++;
  });

  it.each(['/v1/campaigns', '/v1/campaigns/run', '/v1/campaigns/{id}/contacts'])(
    'POST %s: invalid JSON → 400, a non-JSON content type → 415',
    async (template) => {
      const path = template.replace('{id}', () => draftId);
      const auth = { authorization: `Bearer ${t.tenant.api_key}` };
      const broken = await rawPost(h.svc.baseUrl, path, '{"name": "x",', {
        ...auth,
        'content-type': 'application/json',
      });
      expectError(broken, 400, 'invalid_request');
      const text = await rawPost(h.svc.baseUrl, path, 'name=x', { ...auth, 'content-type': 'text/plain' });
      expectError(text, 415, 'unsupported_media_type');
      const form = await rawPost(h.svc.baseUrl, path, 'name=x', {
        ...auth,
        'content-type': 'application/x-www-form-urlencoded',
      });
      expectError(form, 415, 'unsupported_media_type');
    },
  );

  it('created no campaign and added no contact for any of them', async () => {
    expect(await count()).toBe(before);
    expect((await t.api('GET', `/v1/campaigns/${draftId}`)).body.total_contacts).toBe(1);
  });
});

describe('unknown and other tenants’ ids (404)', () => {
  let theirs: string;

  beforeAll(async () => {
    theirs = (await other.create(valid(), true)).campaign_id;
  });

  it.each([
    ['GET', ''],
    ['POST', '/start'],
    ['POST', '/pause'],
    ['POST', '/resume'],
    ['POST', '/contacts'],
    ['GET', '/contacts'],
  ])(
    '%s /v1/campaigns/{id}%s → 404 for an unknown id, a malformed id and another tenant’s id',
    async (method, suffix) => {
      const body =
        method === 'POST' && suffix === '/contacts' ? { contacts: contactsFor(['+14155550100']) } : undefined;
      for (const id of ['cmp_00000000000000000000', 'not-an-id', theirs]) {
        const res = await t.api(method, `/v1/campaigns/${id}${suffix}`, body);
        expectError(res, 404, 'not_found');
      }
      const view = (await other.api('GET', `/v1/campaigns/${theirs}`)).body;
      expect(view).toMatchObject({ status: 'draft', total_contacts: 1 });
    },
  );
});

describe('lists', () => {
  it('GET /v1/campaigns pages newest first with limit, starting_after and has_more', async () => {
    const p = await campaignTenant(h, 'Pages Co');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await p.create(valid({ name: `Page ${i}` }), true)).campaign_id);
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let after: string | undefined;
    do {
      const res = await p.api('GET', `/v1/campaigns?limit=2${after ? `&starting_after=${after}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: any) => c.campaign_id));
      hasMore.push(res.body.has_more);
      after = res.body.has_more ? seen[seen.length - 1] : undefined;
    } while (after);
    expect(seen).toEqual([...ids].reverse());
    expect(hasMore).toEqual([true, true, false]);
    const all = await p.api('GET', '/v1/campaigns');
    expect([all.body.data.length, all.body.has_more]).toEqual([5, false]);

    for (const limit of ['0', '101', 'abc', '1.5', '-1', ''])
      expectError(await p.api('GET', `/v1/campaigns?limit=${limit}`), 400, 'invalid_request', 'limit');
    const theirs = (await other.create(valid(), true)).campaign_id;
    for (const cursor of ['cmp_00000000000000000000', theirs])
      expectError(await p.api('GET', `/v1/campaigns?starting_after=${cursor}`), 404, 'not_found', 'starting_after');
  });

  it('GET /v1/campaigns/{id}/contacts filters by status and pages; a bad status → 400', async () => {
    const numbers = ['+14155550100', '+1415555', '+14155550104', 'nope', '+14155550100'];
    const c = await t.create(valid({ contacts: contactsFor(numbers) }));
    const id = c.campaign_id;
    await eventually(async () => (await status(id)) === 'completed');
    const list = async (query: string) => {
      const res = await t.api('GET', `/v1/campaigns/${id}/contacts${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((x: any) => [x.phone_number, x.status, x.skip_reason]);
    };
    expect(await list('?status=skipped')).toEqual([
      ['+1415555', 'skipped', 'invalid'],
      ['nope', 'skipped', 'invalid'],
    ]);
    expect(await list('?status=completed')).toEqual([
      ['+14155550100', 'completed', null],
      ['+14155550100', 'completed', null],
    ]);
    expect(await list('?status=failed')).toEqual([['+14155550104', 'failed', null]]);
    expect(await list('?status=pending')).toEqual([]);
    const all = (await t.api('GET', `/v1/campaigns/${id}/contacts`)).body.data;
    expect(all.map((x: any) => x.phone_number)).toEqual(numbers);
    const page = await t.api('GET', `/v1/campaigns/${id}/contacts?limit=2&starting_after=${all[1].contact_id}`);
    expect(page.body.data.map((x: any) => x.contact_id)).toEqual([all[2].contact_id, all[3].contact_id]);
    expect(page.body.has_more).toBe(true);

    for (const bad of ['done', 'SKIPPED', ''])
      expectError(await t.api('GET', `/v1/campaigns/${id}/contacts?status=${bad}`), 400, 'invalid_request', 'status');
    expectError(await t.api('GET', `/v1/campaigns/${id}/contacts?limit=0`), 400, 'invalid_request', 'limit');
    expectError(
      await t.api('GET', `/v1/campaigns/${id}/contacts?starting_after=con_00000000000000000000`),
      404,
      'not_found',
      'starting_after',
    );
  });
});
