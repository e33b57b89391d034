/**
 * Campaigns end to end: the real service process (node dist/main.js) with SIM_TIME_SCALE=0.01, one real
 * loopback receiver subscribed to '*'. A campaign goes draft → start → one outcome per contact →
 * completed, every event signed and valid against the catalog; the line count never passes
 * max_concurrency (from the events' timestamps).
 */
import { eventCatalog } from '../../../src/app.module';
import { ALWAYS, campaignTenant, CampaignTenant, FROM, maxOverlap } from '../../support/campaigns-harness';
import { allEvents, CallsService, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { envelopeOf } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const { validatePayload } = eventCatalog;

let h: CallsService;
let t: CampaignTenant;

beforeAll(async () => {
  h = await startCallsService({ SIM_TIME_SCALE: '0.01', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  t = await campaignTenant(h, 'Campaign Co');
});

afterAll(() => stopCallsSuite(h));

const api = <T = any>(method: string, path: string, body?: unknown) => t.api<T>(method, path, body);

describe('a campaign from draft to completed', () => {
  let campaignId: string;

  it('creates a draft with its contacts, shown in order with their zones', async () => {
    const res = await api('POST', '/v1/campaigns', {
      name: 'March recall',
      from_number: FROM,
      test_mode: true,
      agent_config: { prompt: 'You are Ava.' },
      settings: { max_concurrency: 2, quiet_hours: ALWAYS },
      contacts: [
        { phone_number: '+14155550100', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
        { phone_number: '+14155550101', first_name: 'Bob' },
        { phone_number: '+14155550102' },
        { phone_number: '+1415555', first_name: 'Not a number' },
        { phone_number: '+14155550103', timezone: 'Europe/Paris' },
      ],
    });
    expect(res.status).toBe(201);
    campaignId = res.body.campaign_id;
    expect(res.body).toMatchObject({
      name: 'March recall',
      status: 'draft',
      channel: 'phone_call',
      session_type: 'phone_call',
      total_contacts: 5,
      contacts: { pending: 5, dispatched: 0, completed: 0, failed: 0, skipped: 0 },
      settings: { max_concurrency: 2, quiet_hours: ALWAYS, max_calls_per_number_per_day: 3, ends_at: null },
    });
    const contacts = await api('GET', `/v1/campaigns/${campaignId}/contacts`);
    expect(contacts.status).toBe(200);
    expect(contacts.body.data.map((c: any) => [c.phone_number, c.status, c.zones])).toEqual([
      ['+14155550100', 'pending', ['America/Los_Angeles']],
      ['+14155550101', 'pending', ['America/Los_Angeles']],
      ['+14155550102', 'pending', ['America/Los_Angeles']],
      ['+1415555', 'pending', []],
      ['+14155550103', 'pending', ['Europe/Paris']],
    ]);
  });

  it('starts once: every contact gets one outcome, and the campaign completes with the counts', async () => {
    const started = await api('POST', `/v1/campaigns/${campaignId}/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('running');
    const again = await api('POST', `/v1/campaigns/${campaignId}/start`);
    expect(again.status).toBe(409);
    expect(again.body.error.type).toBe('conflict');

    const events = await t.completed(campaignId);
    for (const e of events) expect([e.type, validatePayload(e.type, e.data)]).toEqual([e.type, []]);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['campaign.created', 'campaign.started']);
    expect(types[types.length - 1]).toBe('campaign.completed');
    const dispatched = events.filter((e) => e.type === 'campaign.contact_dispatched');
    expect(dispatched.map((e) => e.data.phone_number).sort()).toEqual([
      '+14155550100',
      '+14155550101',
      '+14155550102',
      '+14155550103',
    ]);
    expect(events.filter((e) => e.type === 'campaign.contact_skipped').map((e) => e.data)).toEqual([
      expect.objectContaining({ phone_number: '+1415555', first_name: 'Not a number', skip_reason: 'invalid' }),
    ]);
    const outcomes = events.filter(
      (e) => e.type === 'campaign.contact_completed' || e.type === 'campaign.contact_failed',
    );
    expect(outcomes.map((e) => [e.data.phone_number, e.type]).sort()).toEqual([
      ['+14155550100', 'campaign.contact_completed'],
      ['+14155550101', 'campaign.contact_failed'],
      ['+14155550102', 'campaign.contact_failed'],
      ['+14155550103', 'campaign.contact_failed'],
    ]);
    const ada = outcomes.find((e) => e.data.phone_number === '+14155550100')!;
    expect(ada.data).toMatchObject({
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      duration_seconds: 45,
    });
    expect(ada.data.session_id).toBe(
      dispatched.find((e) => e.data.phone_number === '+14155550100')!.data.delivery_row_id,
    );
    expect(events.find((e) => e.type === 'campaign.completed')!.data).toMatchObject({
      campaign_id: campaignId,
      total_contacts: 5,
      completed_sessions: 1,
      failed_sessions: 3,
    });

    // The sessions are the campaign's, and their events name it and the contact.
    const sessions = t.receiver.requests.map(envelopeOf).filter((e) => e.type === 'session.created');
    const ours = sessions.filter((e) => e.data.campaign_id === campaignId);
    expect(ours).toHaveLength(4);
    for (const s of ours) expect(s.data.contact_id).toMatch(/^con_/);

    // Never more than max_concurrency contacts between dispatch and outcome.
    expect(maxOverlap(events)).toBeLessThanOrEqual(2);

    await eventually(async () => (await api('GET', `/v1/campaigns/${campaignId}`)).body.status === 'completed');
    const view = await api('GET', `/v1/campaigns/${campaignId}`);
    expect(view.body).toMatchObject({
      status: 'completed',
      total_contacts: 5,
      completed_sessions: 1,
      failed_sessions: 3,
      contacts: { pending: 0, dispatched: 0, completed: 1, failed: 3, skipped: 1 },
    });
    const listed = await api('GET', `/v1/sessions?campaign_id=${campaignId}`);
    expect(listed.body.data).toHaveLength(4);
  });
});

describe('dispositions after a campaign call', () => {
  it('sets one after session.ended, none where the agent gave one or the call failed; sessions carry the contact', async () => {
    const res = await api('POST', '/v1/campaigns/run', {
      name: 'Dispositions',
      from_number: FROM,
      test_mode: true,
      agent_config: {
        prompt: 'You are Ava.',
        dispositions: [
          { code: 'interested', description: 'The person wants to hear more' },
          { code: 'not_interested', description: 'The person declined' },
        ],
      },
      settings: { max_concurrency: 3, quiet_hours: ALWAYS },
      contacts: [
        { phone_number: '+14155550100', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
        { phone_number: '+14155550109', first_name: 'Grace' },
        { phone_number: '+14155550101', first_name: 'Alan' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('running');
    const campaignId = res.body.campaign_id as string;
    const events = await t.completed(campaignId);
    const sessionOf = (phone: string) =>
      events.find((e) => e.type === 'campaign.contact_dispatched' && e.data.phone_number === phone)!.data
        .delivery_row_id as string;
    const ada = sessionOf('+14155550100');
    const all = () => t.receiver.requests.map(envelopeOf);
    await eventually(async () => all().some((e) => e.type === 'session.disposition_set' && e.data.session_id === ada));
    const ended = all().find((e) => e.type === 'session.ended' && e.data.session_id === ada)!;
    expect(ended.data).toMatchObject({
      campaign_id: campaignId,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    const disposition = all().find((e) => e.type === 'session.disposition_set' && e.data.session_id === ada)!;
    expect(disposition.data).toMatchObject({ campaign_id: campaignId, evaluator: 'simulator', model: null });
    expect(['interested', 'not_interested']).toContain(disposition.data.disposition_code);
    expect(validatePayload('session.disposition_set', disposition.data)).toEqual([]);
    // In commit order, after session.ended.
    const feed = await allEvents(h.call, t.tenant.api_key);
    const position = (id: string) => feed.findIndex((e) => e.id === id);
    expect(position(disposition.id)).toBeGreaterThan(position(ended.id));
    // The agent gave one during the +…109 call; the +…101 call was not answered: none for either,
    // once their sessions have ended (a moment for a late one to arrive).
    await new Promise((r) => setTimeout(r, 1000));
    for (const phone of ['+14155550109', '+14155550101']) {
      const id = sessionOf(phone);
      expect(all().filter((e) => e.type === 'session.disposition_set' && e.data.session_id === id)).toEqual([]);
    }
    expect(all().filter((e) => e.type === 'session.disposition_set' && e.data.session_id === ada)).toHaveLength(1);
  });
});
