/** Given/when/then on the campaign decider and its pacing rounds (pure). */
import { DeciderSpecification } from '../../../test/support/decider-specification';
import { fold } from '../../kernel/decider';
import type { SkipReason } from '../campaigns.events';
import {
  Campaign,
  CampaignCommand,
  campaignDecider,
  CampaignEvent,
  CampaignSettings,
  Outcome,
} from './campaign.decider';
import type { NewContact } from './contact';
import { PaceFacts, sessionIdOf } from './pacing';

const spec = DeciderSpecification.for(campaignDecider);
const ID = 'cmp_1';
const NY = ['America/New_York'];
/** 2026-03-02 14:00 in New York (EST, UTC-5): inside the calling window. */
const DAY = '2026-03-02T19:00:00.000Z';
/** 2026-03-02 22:00 in New York: inside the default quiet hours (21:00–08:00). */
const NIGHT = '2026-03-03T03:00:00.000Z';
/** 08:00 in New York the next morning. */
const MORNING = '2026-03-03T13:00:00.000Z';

const settings = (over: Partial<CampaignSettings> = {}): CampaignSettings => ({
  max_concurrency: 2,
  quiet_hours: { start: '21:00', end: '08:00' },
  max_calls_per_number_per_day: 3,
  ends_at: null,
  ...over,
});

const contact = (n: number, over: Partial<NewContact> = {}): NewContact => ({
  contact_id: `con_${n}`,
  phone_number: `+1212555010${n}`,
  e164: `+1212555010${n}`,
  email: `c${n}@example.com`,
  first_name: `First${n}`,
  last_name: null,
  timezone: null,
  zones: NY,
  ...over,
});

const defined = (over: Partial<CampaignSettings> = {}): CampaignEvent => ({
  type: 'campaign.defined',
  data: {
    campaign_id: ID,
    name: 'Recall',
    from_number: '+14155550000',
    test_mode: true,
    agent_config: { prompt: 'hi' },
    settings: settings(over),
  },
});
const created: CampaignEvent = {
  type: 'campaign.created',
  data: { campaign_id: ID, name: 'Recall', channel: 'phone_call', session_type: 'phone_call' },
};
const added = (...contacts: NewContact[]): CampaignEvent => ({ type: 'campaign.contacts_added', data: { contacts } });
const started: CampaignEvent[] = [
  { type: 'campaign.started', data: { campaign_id: ID, started_at: DAY } },
  { type: 'campaign.agent_frozen', data: { agent_config: { prompt: 'hi' } } },
];
const identity = (n: number) => ({
  contact_id: `con_${n}`,
  campaign_id: ID,
  phone_number: `+1212555010${n}`,
  email: `c${n}@example.com`,
  first_name: `First${n}`,
  last_name: null,
});
const dispatched = (n: number): CampaignEvent => ({
  type: 'campaign.contact_dispatched',
  data: { ...identity(n), delivery_row_id: sessionIdOf(`con_${n}`) },
});
const skipped = (n: number, reason: SkipReason): CampaignEvent => ({
  type: 'campaign.contact_skipped',
  data: { ...identity(n), skip_reason: reason },
});
const finished = (n: number, ok: boolean, duration = 45): CampaignEvent => ({
  type: ok ? 'campaign.contact_completed' : 'campaign.contact_failed',
  data: { ...identity(n), session_id: sessionIdOf(`con_${n}`), duration_seconds: duration, actual_cost_cents: 0 },
});
const round = (at: string): CampaignEvent => ({ type: 'campaign.dispatch_round', data: { at } });
const running = (contacts: NewContact[], over: Partial<CampaignSettings> = {}): CampaignEvent[] => [
  defined(over),
  created,
  added(...contacts),
  ...started,
];

/** Facts where every pending number was looked up and none is listed or called before. */
const facts = (contacts: NewContact[], over: Partial<PaceFacts> = {}): PaceFacts => ({
  tenantSuspended: false,
  checked: new Set(contacts.map((c) => c.e164 ?? '')),
  dnc: new Set(),
  otherCalls: new Map(),
  ...over,
});
const pace = (at: string, f: PaceFacts): CampaignCommand => ({ type: 'pace', at, facts: f });
const outcome = (n: number, ok: boolean, at = DAY): CampaignCommand => ({
  type: 'record_outcome',
  contactId: `con_${n}`,
  sessionId: sessionIdOf(`con_${n}`),
  outcome: ok ? 'completed' : 'failed',
  durationSeconds: 45,
  costCents: 0,
  at,
});

describe('campaign decider: lifecycle', () => {
  const c1 = contact(1);

  it('create → defined, created, contacts; run also starts it and freezes the agent', () => {
    const definition = defined().data as Campaign;
    spec
      .given([])
      .when({ type: 'create', definition, contacts: [c1], at: DAY, start: false })
      .then([defined(), created, added(c1)]);
    spec
      .given([])
      .when({ type: 'create', definition, contacts: [c1], at: DAY, start: true })
      .then([defined(), created, added(c1), ...started]);
    spec
      .given([defined(), created])
      .when({ type: 'create', definition, contacts: [], at: DAY, start: false })
      .thenNothingHappened();
  });

  it('starting twice, or pausing a draft, is a conflict; contacts are added only to a draft', () => {
    spec
      .given(running([c1]))
      .when({ type: 'start', at: DAY })
      .thenThrows('conflict');
    spec.given([defined(), created]).when({ type: 'pause', at: DAY }).thenThrows('conflict');
    spec
      .given(running([c1]))
      .when({ type: 'add_contacts', contacts: [contact(2)] })
      .thenThrows('conflict');
    spec
      .given([defined(), created])
      .when({ type: 'add_contacts', contacts: [contact(2)] })
      .then([added(contact(2))]);
    spec.given([]).when({ type: 'start', at: DAY }).thenThrows({ code: 'not_found', param: 'campaign_id' });
  });

  it('pause by hand, resume by hand; a quiet-hours pause cannot be resumed by hand', () => {
    const paused: CampaignEvent = {
      type: 'campaign.paused',
      data: { campaign_id: ID, paused_at: DAY, reason: 'manual' },
    };
    spec
      .given(running([c1]))
      .when({ type: 'pause', at: DAY })
      .then([paused]);
    spec
      .given([...running([c1]), paused])
      .when({ type: 'pause', at: DAY })
      .thenThrows('conflict');
    spec
      .given([...running([c1]), paused])
      .when({ type: 'resume', at: MORNING })
      .then([{ type: 'campaign.resumed', data: { campaign_id: ID, resumed_at: MORNING, reason: 'manual' } }]);
    spec
      .given(running([c1]))
      .when({ type: 'resume', at: DAY })
      .thenThrows('conflict');
    const quiet: CampaignEvent = {
      type: 'campaign.paused_quiet_hours',
      data: { campaign_id: ID, paused_at: NIGHT, next_open_at: MORNING },
    };
    spec
      .given([...running([c1]), quiet])
      .when({ type: 'resume', at: NIGHT })
      .thenThrows('conflict');
  });

  it('a paused campaign dispatches nothing', () => {
    const paused: CampaignEvent = {
      type: 'campaign.paused',
      data: { campaign_id: ID, paused_at: DAY, reason: 'manual' },
    };
    spec
      .given([...running([c1]), paused])
      .when(pace(DAY, facts([c1])))
      .thenNothingHappened();
  });
});

describe('campaign decider: pacing', () => {
  const cs = [contact(1), contact(2), contact(3)];

  it('dispatches in order up to max_concurrency, each contact with its own session id', () => {
    spec
      .given(running(cs))
      .when(pace(DAY, facts(cs)))
      .then([round(DAY), dispatched(1), dispatched(2)]);
  });

  it('a freed line dispatches the next contact; a dispatched contact is never dispatched again', () => {
    spec
      .given([...running(cs), round(DAY), dispatched(1), dispatched(2), finished(1, true)])
      .when(pace(DAY, facts(cs)))
      .then([round(DAY), dispatched(3)]);
    spec
      .given([...running(cs), round(DAY), dispatched(1), dispatched(2)])
      .when(pace(DAY, facts(cs)))
      .thenNothingHappened();
  });

  it('skips an invalid number, a listed number and a suspended tenant, each with its reason', () => {
    const bad = contact(1, { phone_number: '12345', e164: null, zones: [] });
    const listed = contact(2);
    const ok = contact(3);
    spec
      .given(running([bad, listed, ok]))
      .when(pace(DAY, facts([listed, ok], { dnc: new Set([listed.e164 ?? '']) })))
      .then([
        round(DAY),
        { ...skipped(1, 'invalid'), data: { ...skipped(1, 'invalid').data, phone_number: '12345' } } as CampaignEvent,
        skipped(2, 'dnc_blocked'),
        dispatched(3),
      ]);
    spec
      .given(running(cs))
      .when(pace(DAY, facts(cs, { tenantSuspended: true })))
      .then([
        skipped(1, 'tenant_suspended'),
        skipped(2, 'tenant_suspended'),
        skipped(3, 'tenant_suspended'),
        expectCompleted(3, 0, 0),
      ]);
  });

  it('daily cap: the tenant’s other calls today and this campaign’s own dispatches to the number count', () => {
    const same = [contact(1), contact(2, { e164: '+12125550101', phone_number: '+12125550101' })];
    const cap1 = running(same, { max_calls_per_number_per_day: 1, max_concurrency: 5 });
    // Both contacts have one number: the second would be its second call today.
    spec
      .given(cap1)
      .when(pace(DAY, facts(same)))
      .then([
        round(DAY),
        dispatched(1),
        {
          type: 'campaign.contact_skipped',
          data: { ...identity(2), phone_number: '+12125550101', skip_reason: 'daily_cap_reached' },
        },
      ]);
    // A call this morning (New York) counts; one yesterday evening does not.
    const thisMorning = Date.parse('2026-03-02T14:00:00.000Z');
    const yesterday = Date.parse('2026-03-02T02:00:00.000Z');
    const one = [contact(1)];
    spec
      .given(running(one, { max_calls_per_number_per_day: 1 }))
      .when(pace(DAY, facts(one, { otherCalls: new Map([['+12125550101', [thisMorning]]]) })))
      .then([skipped(1, 'daily_cap_reached'), expectCompleted(1, 0, 0)]);
    spec
      .given(running(one, { max_calls_per_number_per_day: 1 }))
      .when(pace(DAY, facts(one, { otherCalls: new Map([['+12125550101', [yesterday]]]) })))
      .then([round(DAY), dispatched(1)]);
  });

  it('leaves a contact whose number was not looked up for the next round', () => {
    spec
      .given(running(cs))
      .when(pace(DAY, facts(cs, { checked: new Set([cs[0]!.e164 ?? '']) })))
      .then([round(DAY), dispatched(1)]);
  });

  it('pauses for quiet hours when every remaining contact is inside its window, and resumes when one opens', () => {
    const quiet: CampaignEvent = {
      type: 'campaign.paused_quiet_hours',
      data: { campaign_id: ID, paused_at: NIGHT, next_open_at: MORNING },
    };
    spec
      .given(running(cs))
      .when(pace(NIGHT, facts(cs)))
      .then([quiet]);
    spec
      .given([...running(cs), quiet])
      .when(pace(MORNING, facts(cs)))
      .then([
        { type: 'campaign.resumed', data: { campaign_id: ID, resumed_at: MORNING, reason: 'quiet_hours_ended' } },
        round(MORNING),
        dispatched(1),
        dispatched(2),
      ]);
    // Still night: nothing, and no second pause event.
    spec
      .given([...running(cs), quiet])
      .when(pace(NIGHT, facts(cs)))
      .thenNothingHappened();
  });

  it('a contact in another zone is called while New York sleeps', () => {
    const la = contact(1, { zones: ['America/Los_Angeles'] });
    // 03:00Z: 22:00 in New York, 19:00 in Los Angeles.
    spec
      .given(running([contact(2), la]))
      .when(pace(NIGHT, facts([la, contact(2)])))
      .then([
        round(NIGHT),
        dispatched(1),
        // The one left is in New York, inside its quiet hours: the campaign pauses while the call goes on.
        {
          type: 'campaign.paused_quiet_hours',
          data: { campaign_id: ID, paused_at: NIGHT, next_open_at: MORNING },
        },
      ]);
  });

  it('after ends_at, waiting contacts are skipped: quiet_hours_expired inside their window, concurrency_full outside', () => {
    const endsAt = '2026-03-02T18:00:00.000Z';
    const la = contact(3, { zones: ['Asia/Tokyo'] }); // 04:00 in Tokyo: quiet
    spec
      .given([
        ...running([contact(1), contact(2), la], { ends_at: endsAt, max_concurrency: 1 }),
        round(DAY),
        dispatched(1),
      ])
      .when(pace(DAY, facts([contact(2), la])))
      .then([skipped(2, 'concurrency_full'), skipped(3, 'quiet_hours_expired')]);
  });

  it('a contact whose zones never open is skipped as quiet_hours_expired at once', () => {
    const everywhere = contact(1, { zones: ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/London'] });
    spec
      .given(running([everywhere], { quiet_hours: { start: '12:00', end: '11:00' } }))
      .when(pace(DAY, facts([everywhere])))
      .then([skipped(1, 'quiet_hours_expired'), expectCompleted(1, 0, 0)]);
  });
});

function expectCompleted(total: number, completed: number, failed: number, at = DAY): CampaignEvent {
  return {
    type: 'campaign.completed',
    data: {
      campaign_id: ID,
      completed_at: at,
      total_contacts: total,
      completed_sessions: completed,
      failed_sessions: failed,
    },
  };
}

describe('campaign decider: outcomes and completion', () => {
  const cs = [contact(1), contact(2)];
  const live = [...running(cs), round(DAY), dispatched(1), dispatched(2)];

  it('records a call outcome on its contact; once every contact is terminal the campaign completes with the counts', () => {
    spec
      .given(live)
      .when(outcome(1, true))
      .then([finished(1, true)]);
    spec
      .given([...live, finished(1, true)])
      .when(outcome(2, false))
      .then([finished(2, false), expectCompleted(2, 1, 1)]);
  });

  it('an outcome recorded twice, or of an unknown contact, changes nothing', () => {
    spec
      .given([...live, finished(1, true)])
      .when(outcome(1, true))
      .thenNothingHappened();
    spec
      .given(live)
      .when({ ...outcome(1, true), contactId: 'con_9' } as CampaignCommand)
      .thenNothingHappened();
  });

  it('several outcomes in one command: each finishes its contact once, then the campaign completes once', () => {
    const of = (n: number, ok: boolean): Outcome => ({
      contactId: `con_${n}`,
      sessionId: sessionIdOf(`con_${n}`),
      outcome: ok ? 'completed' : 'failed',
      durationSeconds: 45,
      costCents: 0,
    });
    const [one, two] = [of(1, true), of(2, false)];
    spec
      .given(live)
      .when({ type: 'record_outcomes', outcomes: [one, { ...one, contactId: 'con_9' }, two, one], at: DAY })
      .then([finished(1, true), finished(2, false), expectCompleted(2, 1, 1)]);
    spec
      .given([...live, finished(1, true)])
      .when({ type: 'record_outcomes', outcomes: [one], at: DAY })
      .thenNothingHappened();
  });

  it('a campaign started with no contacts completes at its first round', () => {
    spec
      .given(running([]))
      .when(pace(DAY, facts([])))
      .then([expectCompleted(0, 0, 0)]);
  });

  it('counts contacts by status as they move', () => {
    const state = fold(campaignDecider, [...live, finished(1, true)]) as Campaign;
    expect(state.counts).toEqual({ pending: 0, dispatched: 1, completed: 1, failed: 0, skipped: 0 });
    expect(state.contacts.get('con_1')?.dispatchedAt).toBe(Date.parse(DAY));
  });
});
