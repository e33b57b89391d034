/** The pacer's "another round at once?" policy (pacing.ts), on campaigns folded from their events. */
import { fold } from '../../kernel/decider';
import { type Campaign, campaignDecider, type CampaignEvent, type CampaignState } from './campaign.decider';
import type { NewContact } from './contact';
import { freedLines, isPaced, type PaceFacts, sessionIdOf, stoppedShort } from './pacing';

const ID = 'cmp_1';
/** 14:00 in New York: inside the calling window. */
const DAY = new Date('2026-03-02T19:00:00.000Z');

const contact = (n: number): NewContact => ({
  contact_id: `con_${n}`,
  phone_number: `+1212555010${n}`,
  e164: `+1212555010${n}`,
  email: null,
  first_name: null,
  last_name: null,
  timezone: null,
  zones: ['America/New_York'],
});
const identity = (n: number) => ({
  contact_id: `con_${n}`,
  campaign_id: ID,
  phone_number: `+1212555010${n}`,
  email: null,
  first_name: null,
  last_name: null,
});

/** A running campaign of `contacts` contacts and one line, its first `dispatched` contacts dispatched. */
function campaign(contacts: number, dispatched: number, extra: CampaignEvent[] = []): CampaignState {
  const events: CampaignEvent[] = [
    {
      type: 'campaign.defined',
      data: {
        campaign_id: ID,
        name: 'Recall',
        from_number: '+14155550000',
        test_mode: true,
        agent_config: null,
        settings: {
          max_concurrency: 1,
          quiet_hours: { start: '21:00', end: '08:00' },
          max_calls_per_number_per_day: 3,
          ends_at: null,
        },
      },
    },
    { type: 'campaign.contacts_added', data: { contacts: Array.from({ length: contacts }, (_, i) => contact(i + 1)) } },
    { type: 'campaign.started', data: { campaign_id: ID, started_at: DAY.toISOString() } },
    ...Array.from({ length: dispatched }, (_, i): CampaignEvent => ({
      type: 'campaign.contact_dispatched',
      data: { ...identity(i + 1), delivery_row_id: sessionIdOf(`con_${i + 1}`) },
    })),
    ...extra,
  ];
  return fold(campaignDecider, events);
}
const paced = (state: CampaignState): Campaign => {
  if (!isPaced(state)) throw new Error('not paced');
  return state;
};
const looked = (...numbers: number[]): PaceFacts => ({
  tenantSuspended: false,
  checked: new Set(numbers.map((n) => `+1212555010${n}`)),
  dnc: new Set(),
  otherCalls: new Map(),
});
const completed = (n: number): CampaignEvent => ({
  type: 'campaign.contact_completed',
  data: { ...identity(n), session_id: sessionIdOf(`con_${n}`), duration_seconds: 30, actual_cost_cents: 0 },
});

describe('pacing: another round at once', () => {
  it('stopped short: a contact the round could dispatch had a number it did not look up', () => {
    const state = paced(campaign(3, 0));
    expect(stoppedShort(state, DAY, looked(2, 3))).toBe(true);
    expect(stoppedShort(state, DAY, looked(1))).toBe(false);
  });

  it('lines freed: outcomes recorded meanwhile left fewer calls live, with contacts still pending', () => {
    const before = paced(campaign(3, 1));
    expect(freedLines(before, campaign(3, 1, [completed(1)]))).toBe(true);
    expect(freedLines(before, campaign(3, 1))).toBe(false); // nothing freed
    expect(freedLines(before, campaign(1, 1, [completed(1)]))).toBe(false); // none pending
    const paused: CampaignEvent = {
      type: 'campaign.paused',
      data: { campaign_id: ID, paused_at: '', reason: 'manual' },
    };
    expect(freedLines(before, campaign(3, 1, [completed(1), paused]))).toBe(false); // paused by hand
  });
});
