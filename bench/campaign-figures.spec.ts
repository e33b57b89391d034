import { campaignFigures, CampaignStreamEvent } from './campaign-figures';

const ev = (type: string, at: number, contactId: string | null = null, roundAt?: number): CampaignStreamEvent => ({
  type: `campaign.${type}`,
  at,
  contactId,
  ...(roundAt === undefined ? {} : { roundAt }),
});

describe('campaignFigures', () => {
  // Two lines, four contacts: a and b at once; c takes the line a freed, d the line b freed.
  const events = [
    ev('contacts_added', 0),
    ev('started', 1000),
    ev('dispatch_round', 1010),
    ev('contact_dispatched', 1010, 'a'),
    ev('contact_dispatched', 1010, 'b'),
    ev('contact_completed', 1100, 'a'),
    ev('dispatch_round', 1130, null, 1120),
    ev('contact_dispatched', 1130, 'c'),
    ev('contact_failed', 1200, 'b'),
    ev('contact_skipped', 1210, 'x'),
    ev('dispatch_round', 1250, null, 1190),
    ev('contact_dispatched', 1250, 'd'),
    ev('contact_completed', 1300, 'c'),
    ev('contact_failed', 1400, 'd'),
    ev('completed', 1400),
  ];

  it('measures the first wave from campaign.started and each refill from the outcome that freed its line', () => {
    const f = campaignFigures(events, 2);
    expect(f.first_wave_lag_ms).toMatchObject({ count: 2, max: 10, mean: 10 });
    expect(f.refill_lag_ms).toMatchObject({ count: 2, p50: 50, max: 50, mean: 40 });
    expect(f.dispatch_lag_ms).toMatchObject({ count: 4, max: 50 });
    // c: its round began 20 ms after a's outcome and dispatched 10 ms later; d's round began before
    // b's outcome (at 1190), so all of its 50 ms count inside the round.
    expect(f.refill_until_round_ms).toMatchObject({ count: 2, max: 20, mean: 10 });
    expect(f.refill_in_round_ms).toMatchObject({ count: 2, max: 50, mean: 30 });
  });

  it('counts contacts, rounds, the throughput, line holds and the most lines in use', () => {
    const f = campaignFigures(events, 2);
    expect(f).toMatchObject({
      contacts: 5,
      dispatched: 4,
      finished: 4,
      skipped: 1,
      run_s: 0.4,
      contacts_per_s: 12.5,
      rounds: 3,
      dispatches_per_round: 1.33,
      most_live: 2,
    });
    expect(f.line_hold_ms).toMatchObject({ count: 4, max: 190, mean: 150 });
  });

  it('refuses a dispatch past the limit that no outcome explains', () => {
    expect(() => campaignFigures(events, 1)).toThrow(/took a line no outcome had freed/);
  });
});
