/**
 * The campaign pacer's rules end to end, on the real service process (SIM_TIME_SCALE=0.01), each
 * tenant with its own loopback receiver: every skip reason from a real situation, max_concurrency
 * (from the events' timestamps), a manual pause and resume, and a quiet-hours pause that resumes by
 * itself. Events are read back in commit order from GET /v1/events and checked against what the
 * receiver got, signed.
 */
import {
  ALWAYS,
  campaignTenant,
  CampaignTenant,
  contactsFor,
  FROM,
  maxOverlap,
  ofType,
  skips,
  suspendTenant,
  terminalsByContact,
  utcHHMM,
} from '../../support/campaigns-harness';
import { CallsService, placeCall, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { consistently, Envelope, sleep } from '../../support/webhooks-harness';

jest.setTimeout(90_000);

let h: CallsService;

beforeAll(async () => {
  h = await startCallsService({ SIM_TIME_SCALE: '0.01', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

afterAll(() => stopCallsSuite(h));

const MINUTE = 60_000;
/** Answered test-pool calls (any number not listed), distinct per campaign so that caps do not mix. */
const answered = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `+1415555${String(from + i).padStart(4, '0')}`);
const base = (name: string, settings: Record<string, unknown>, contacts: unknown[]) => ({
  name,
  from_number: FROM,
  test_mode: true,
  settings: { quiet_hours: ALWAYS, max_calls_per_number_per_day: 100, ...settings },
  contacts,
});
const at = (e: Envelope) => Date.parse(e.created_at);
/** Polls GET /v1/campaigns/{id} until `ok` holds; the campaign. */
const campaignWhen = (t: CampaignTenant, id: string, ok: (c: any) => boolean, timeoutMs = 10_000) =>
  eventually(
    async () => {
      const res = await t.api('GET', `/v1/campaigns/${id}`);
      return ok(res.body) ? res.body : false;
    },
    timeoutMs,
    10,
  );
const started = (c: any) => c.contacts.dispatched + c.contacts.completed + c.contacts.failed >= 1;

function expectOneTerminalEach(events: Envelope[], total: number): void {
  const byContact = terminalsByContact(events);
  expect(byContact.size).toBe(total);
  for (const [id, terminals] of byContact) expect([id, terminals.length]).toEqual([id, 1]);
}

/** The quiet-hours campaign: paused in the first case, resumed by itself in the last. */
let quiet: { t: CampaignTenant; id: string; openAt: number } | undefined;

// Started first and checked last, so that its wait for the next minute overlaps the other cases.
describe('a quiet-hours pause that resumes by itself', () => {
  it('pauses itself with next_open_at the next whole minute, shows paused/quiet_hours, and refuses a manual resume', async () => {
    const t = await campaignTenant(h, 'Quiet Minute');
    if (Date.now() % MINUTE > MINUTE - 10_000) await sleep(MINUTE - (Date.now() % MINUTE) + 50);
    const minute = Date.now() - (Date.now() % MINUTE);
    const openAt = minute + MINUTE;
    const campaign = await t.create({
      ...base('Quiet minute', { quiet_hours: { start: utcHHMM(minute), end: utcHHMM(openAt) } }, []),
      contacts: [{ phone_number: '+14155550180', timezone: 'UTC' }],
    });
    const id: string = campaign.campaign_id;
    quiet = { t, id, openAt };
    const paused = await campaignWhen(t, id, (c) => c.status === 'paused');
    expect(paused).toMatchObject({
      pause_reason: 'quiet_hours',
      next_open_at: new Date(openAt).toISOString(),
      contacts: { pending: 1, dispatched: 0 },
    });
    const resume = await t.api('POST', `/v1/campaigns/${id}/resume`);
    expect(resume.status).toBe(409);
    expect(resume.body.error).toMatchObject({ type: 'conflict', request_id: expect.any(String) });
    const events = await t.feed(id);
    expect(events.map((e) => e.type)).toEqual(['campaign.created', 'campaign.started', 'campaign.paused_quiet_hours']);
    expect(events[2]!.data).toMatchObject({ campaign_id: id, next_open_at: new Date(openAt).toISOString() });
  });

  // The second half of this case is at the end of the file.
});

describe('skip reasons, each from a real situation', () => {
  it('`invalid` for numbers that are not valid, `dnc_blocked` for one on the do-not-call list before the start', async () => {
    const t = await campaignTenant(h, 'Skips Invalid Dnc');
    const dnc = await t.api('POST', '/v1/dnc', { phone_number: '+14155550120' });
    expect(dnc.status).toBe(201);
    const c = await t.create(
      base('Invalid and DNC', { max_concurrency: 2 }, [
        { phone_number: '+1415555', first_name: 'Short' },
        { phone_number: 'call me maybe' },
        { phone_number: '+14155550120' },
        { phone_number: '+14155550121' },
      ]),
    );
    const events = await t.completed(c.campaign_id);
    expect(skips(events)).toEqual([
      ['+1415555', 'invalid'],
      ['call me maybe', 'invalid'],
      ['+14155550120', 'dnc_blocked'],
    ]);
    expect(ofType(events, 'campaign.contact_dispatched').map((e) => e.data.phone_number)).toEqual(['+14155550121']);
    expect(ofType(events, 'campaign.completed')[0]!.data).toMatchObject({ total_contacts: 4, completed_sessions: 1 });
  });

  it('`dnc_blocked` for a later contact whose number opted out on an earlier call of the same campaign', async () => {
    const t = await campaignTenant(h, 'Skips Opt Out');
    const c = await t.create(
      base('Opt-out', { max_concurrency: 1 }, [
        { phone_number: '+14155550106', first_name: 'A' },
        { phone_number: '+14155550106', first_name: 'B' },
      ]),
    );
    const events = await t.completed(c.campaign_id);
    const dispatched = ofType(events, 'campaign.contact_dispatched');
    expect(dispatched.map((e) => e.data.first_name)).toEqual(['A']);
    expect(ofType(events, 'campaign.contact_completed').map((e) => e.data.first_name)).toEqual(['A']);
    expect(ofType(events, 'campaign.contact_skipped').map((e) => [e.data.first_name, e.data.skip_reason])).toEqual([
      ['B', 'dnc_blocked'],
    ]);
    const sessionA = dispatched[0]!.data.delivery_row_id;
    const optOut = t.receiver.requests.map((r) => JSON.parse(r.body) as Envelope);
    expect(optOut.some((e) => e.type === 'session.opt_out_detected' && e.data.session_id === sessionA)).toBe(true);
    const list = await t.api('GET', '/v1/dnc');
    expect(list.body.data).toEqual([
      expect.objectContaining({ phone_number: '+14155550106', source: 'opt_out', session_id: sessionA }),
    ]);
  });

  it('`daily_cap_reached` for a number called earlier today with POST /v1/calls, and for a second contact with the same number', async () => {
    const t = await campaignTenant(h, 'Skips Daily Cap');
    const call = await placeCall(h.call, t.tenant.api_key, '+14155550130', { testMode: true });
    await eventually(async () => (await t.api('GET', `/v1/sessions/${call.session_id}`)).status === 200);
    const c = await t.create(
      base('Daily cap', { max_concurrency: 3, max_calls_per_number_per_day: 1 }, [
        { phone_number: '+14155550130' },
        { phone_number: '+14155550131', first_name: 'first' },
        { phone_number: '+14155550131', first_name: 'second' },
        { phone_number: '+14155550132' },
      ]),
    );
    const events = await t.completed(c.campaign_id);
    expect(
      ofType(events, 'campaign.contact_skipped').map((e) => [
        e.data.phone_number,
        e.data.first_name,
        e.data.skip_reason,
      ]),
    ).toEqual([
      ['+14155550130', null, 'daily_cap_reached'],
      ['+14155550131', 'second', 'daily_cap_reached'],
    ]);
    expect(ofType(events, 'campaign.contact_dispatched').map((e) => [e.data.phone_number, e.data.first_name])).toEqual([
      ['+14155550131', 'first'],
      ['+14155550132', null],
    ]);
  });

  it('`tenant_suspended` for the contacts left when the tenant is suspended; the call in flight still ends and is reported; start and resume are 403', async () => {
    const t = await campaignTenant(h, 'Skips Suspended');
    const draft = await t.create(base('Draft', {}, contactsFor(['+14155550149'])), true);
    const paused = await t.create(
      base('Paused', { max_concurrency: 1 }, contactsFor(['+14155550101', '+14155550101'])),
    );
    expect((await t.api('POST', `/v1/campaigns/${paused.campaign_id}/pause`)).status).toBe(200);
    // The first call is a transfer (0.64 s of calls at this scale): time enough to suspend while it lasts.
    const numbers = ['+14155550105', ...answered(141, 5)];
    const c = await t.create(base('Suspended', { max_concurrency: 1 }, contactsFor(numbers)));
    await campaignWhen(t, c.campaign_id, started);
    const suspendedAt = Date.now();
    await suspendTenant(h, t.tenant.tenant_id);

    const events = await t.completed(c.campaign_id);
    const dispatched = ofType(events, 'campaign.contact_dispatched');
    expect(dispatched.map((e) => e.data.phone_number)).toEqual(['+14155550105']);
    expect(ofType(events, 'campaign.contact_completed').map((e) => e.data.phone_number)).toEqual(['+14155550105']);
    expect(skips(events)).toEqual(numbers.slice(1).map((n) => [n, 'tenant_suspended']));
    for (const e of ofType(events, 'campaign.contact_completed')) expect(at(e)).toBeGreaterThanOrEqual(suspendedAt);
    expect(ofType(events, 'campaign.completed')[0]!.data).toMatchObject({
      total_contacts: 6,
      completed_sessions: 1,
      failed_sessions: 0,
    });
    // The in-flight session's own end was delivered too.
    const session = String(dispatched[0]!.data.delivery_row_id);
    const delivered = t.receiver.requests.map((r) => JSON.parse(r.body) as Envelope);
    expect(delivered.some((e) => e.type === 'session.ended' && e.data.session_id === session)).toBe(true);

    for (const [path, body] of [
      [`/v1/campaigns/${draft.campaign_id}/start`, undefined],
      [`/v1/campaigns/${paused.campaign_id}/resume`, undefined],
      ['/v1/campaigns/run', base('Refused', {}, contactsFor(['+14155550148']))],
    ] as const) {
      const res = await t.api('POST', path, body);
      expect([path, res.status, res.body.error?.type]).toEqual([path, 403, 'forbidden']);
    }
    expect((await t.api('GET', `/v1/campaigns/${draft.campaign_id}`)).body.status).toBe('draft');
    expect((await t.api('GET', `/v1/campaigns/${paused.campaign_id}`)).body).toMatchObject({
      status: 'paused',
      pause_reason: 'manual',
    });
  });

  it('`concurrency_full` for the contacts still waiting for a line at ends_at', async () => {
    const t = await campaignTenant(h, 'Skips Concurrency');
    const endsAt = Date.now() + 2_500;
    const numbers = answered(150, 8);
    const c = await t.create(
      base('Ends soon', { max_concurrency: 1, ends_at: new Date(endsAt).toISOString() }, contactsFor(numbers)),
    );
    const events = await t.completed(c.campaign_id);
    const dispatched = ofType(events, 'campaign.contact_dispatched');
    expect(dispatched.length).toBeGreaterThanOrEqual(1);
    expect(dispatched.length).toBeLessThan(8);
    // Decided before ends_at (events are stamped when appended, a few ms after the round's instant).
    for (const e of dispatched) expect(at(e)).toBeLessThan(endsAt + 200);
    const lastDispatch = events.lastIndexOf(dispatched[dispatched.length - 1]!);
    expect(events.findIndex((e) => e.type === 'campaign.contact_skipped')).toBeGreaterThan(lastDispatch);
    // Contacts are taken in order: those dispatched first, then the rest skipped.
    expect(dispatched.map((e) => e.data.phone_number)).toEqual(numbers.slice(0, dispatched.length));
    expect(skips(events)).toEqual(numbers.slice(dispatched.length).map((n) => [n, 'concurrency_full']));
    for (const e of ofType(events, 'campaign.contact_skipped')) expect(at(e)).toBeGreaterThanOrEqual(endsAt);
    expectOneTerminalEach(events, 8);
    expect(maxOverlap(events)).toBe(1);
    expect(ofType(events, 'campaign.completed')[0]!.data).toMatchObject({
      total_contacts: 8,
      completed_sessions: dispatched.length,
    });
  });

  it('`quiet_hours_expired` for contacts inside their quiet hours until ends_at, after a quiet-hours pause', async () => {
    const t = await campaignTenant(h, 'Skips Quiet');
    const now = Date.now();
    const minute = now - (now % MINUTE);
    // Quiet from the last minute to two minutes on: it does not open before ends_at.
    const quiet = { start: utcHHMM(minute - MINUTE), end: utcHHMM(minute + 2 * MINUTE) };
    const endsAt = now + 2_000;
    const c = await t.create({
      ...base('Quiet until the end', { quiet_hours: quiet, ends_at: new Date(endsAt).toISOString() }, []),
      contacts: [
        { phone_number: '+14155550160', timezone: 'UTC' },
        { phone_number: '+442079460161', timezone: 'UTC' },
      ],
    });
    const events = await t.completed(c.campaign_id);
    expect(events.map((e) => e.type)).toEqual([
      'campaign.created',
      'campaign.started',
      'campaign.paused_quiet_hours',
      'campaign.contact_skipped',
      'campaign.contact_skipped',
      'campaign.completed',
    ]);
    expect(events[2]!.data.next_open_at).toBe(new Date(minute + 2 * MINUTE).toISOString());
    expect(skips(events)).toEqual([
      ['+14155550160', 'quiet_hours_expired'],
      ['+442079460161', 'quiet_hours_expired'],
    ]);
    for (const e of events.slice(3)) expect(at(e)).toBeGreaterThanOrEqual(endsAt);
    expect(events[5]!.data).toMatchObject({ total_contacts: 2, completed_sessions: 0, failed_sessions: 0 });
  });
});

describe('max_concurrency', () => {
  it('is never exceeded: 20 contacts at 3 lines, each with exactly one terminal event, the counts matching', async () => {
    const t = await campaignTenant(h, 'Concurrency');
    const pool = ['+14155550101', '+14155550102', '+14155550104'];
    const numbers = Array.from({ length: 20 }, (_, i) => (i % 4 === 3 ? pool[i % 3]! : answered(200 + i, 1)[0]!));
    const c = await t.create(base('Twenty', { max_concurrency: 3 }, contactsFor(numbers)));
    const events = await t.completed(c.campaign_id);
    expect(maxOverlap(events)).toBe(3);
    expectOneTerminalEach(events, 20);
    expect(ofType(events, 'campaign.contact_dispatched')).toHaveLength(20);
    const completedN = ofType(events, 'campaign.contact_completed').length;
    const failedN = ofType(events, 'campaign.contact_failed').length;
    expect([completedN, failedN]).toEqual([15, 5]);
    expect(ofType(events, 'campaign.completed')[0]!.data).toMatchObject({
      total_contacts: 20,
      completed_sessions: completedN,
      failed_sessions: failedN,
    });
    const view = await campaignWhen(t, c.campaign_id, (x) => x.status === 'completed');
    expect(view).toMatchObject({
      completed_sessions: 15,
      failed_sessions: 5,
      contacts: { pending: 0, dispatched: 0, completed: 15, failed: 5, skipped: 0 },
    });
  });
});

describe('a manual pause', () => {
  it('lets the call in flight finish, dispatches nothing while paused, refuses a second pause, and resumes by hand', async () => {
    const t = await campaignTenant(h, 'Manual Pause');
    const numbers = ['+14155550105', ...answered(171, 3)];
    const c = await t.create(base('Pause me', { max_concurrency: 1 }, contactsFor(numbers)));
    const id = c.campaign_id;
    await campaignWhen(t, id, started);
    const pause = await t.api('POST', `/v1/campaigns/${id}/pause`);
    expect(pause.status).toBe(200);
    expect(pause.body).toMatchObject({ status: 'paused', pause_reason: 'manual', paused_at: expect.any(String) });
    // The call in flight ends and is reported; then nothing moves while paused.
    await campaignWhen(t, id, (x) => x.contacts.dispatched === 0 && x.contacts.completed === 1);
    await consistently(async () => {
      const view = (await t.api('GET', `/v1/campaigns/${id}`)).body;
      expect(view).toMatchObject({
        status: 'paused',
        pause_reason: 'manual',
        contacts: { pending: 3, dispatched: 0, completed: 1 },
      });
    }, 1_500);
    const again = await t.api('POST', `/v1/campaigns/${id}/pause`);
    expect([again.status, again.body.error?.type]).toEqual([409, 'conflict']);
    const resume = await t.api('POST', `/v1/campaigns/${id}/resume`);
    expect(resume.status).toBe(200);
    expect(resume.body).toMatchObject({ status: 'running', pause_reason: null });

    const events = await t.completed(id);
    const types = events.map((e) => e.type);
    const paused = types.indexOf('campaign.paused');
    const resumed = types.indexOf('campaign.resumed');
    expect(events[paused]!.data).toMatchObject({ campaign_id: id, reason: 'manual' });
    expect(events[resumed]!.data).toMatchObject({ campaign_id: id, reason: 'manual' });
    expect(at(events[resumed]!) - at(events[paused]!)).toBeGreaterThanOrEqual(1_500);
    // Before the pause: the first contact only; while paused: only its outcome; after: the rest.
    const phones = (from: number, to: number, type: string) =>
      events
        .slice(from, to)
        .filter((e) => e.type === type)
        .map((e) => e.data.phone_number);
    expect(phones(0, paused, 'campaign.contact_dispatched')).toEqual(['+14155550105']);
    expect(events.slice(paused + 1, resumed).map((e) => [e.type, e.data.phone_number])).toEqual([
      ['campaign.contact_completed', '+14155550105'],
    ]);
    expect(phones(resumed, events.length, 'campaign.contact_dispatched')).toEqual(numbers.slice(1));
    expectOneTerminalEach(events, 4);
    expect(types[types.length - 1]).toBe('campaign.completed');
  });
});

describe('a quiet-hours pause that resumes by itself (continued)', () => {
  it('resumes with reason quiet_hours_ended at next_open_at, dispatches the contact and completes', async () => {
    const { t, id, openAt } = quiet!;
    const events = await t.completed(id, openAt - Date.now() + 15_000);
    expect(events.map((e) => e.type)).toEqual([
      'campaign.created',
      'campaign.started',
      'campaign.paused_quiet_hours',
      'campaign.resumed',
      'campaign.contact_dispatched',
      'campaign.contact_completed',
      'campaign.completed',
    ]);
    const resumed = events[3]!;
    expect(resumed.data).toMatchObject({ campaign_id: id, reason: 'quiet_hours_ended' });
    expect(Date.parse(String(resumed.data.resumed_at))).toBeGreaterThanOrEqual(openAt);
    expect(at(resumed)).toBeGreaterThanOrEqual(openAt);
    expect(events[4]!.data.phone_number).toBe('+14155550180');
    expect(events[6]!.data).toMatchObject({ total_contacts: 1, completed_sessions: 1, failed_sessions: 0 });
    expect(await campaignWhen(t, id, (c) => c.status === 'completed')).toMatchObject({
      pause_reason: null,
      contacts: { completed: 1 },
    });
  });
});
