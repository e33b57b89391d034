import { Percentiles, percentiles, round2 } from './percentiles';

/** One event of a campaign's stream, in stream order: its type, its `created_at` (ms) and contact. */
export interface CampaignStreamEvent {
  readonly type: string;
  readonly at: number;
  readonly contactId: string | null;
  /** A campaign.dispatch_round's own `at`: when its pacing round began (before gathering its facts). */
  readonly roundAt?: number;
}

export interface CampaignFigures {
  contacts: number;
  dispatched: number;
  finished: number;
  skipped: number;
  /** campaign.started to campaign.completed, seconds. */
  run_s: number;
  contacts_per_s: number;
  /** Lag of every dispatch (first wave and refills together): the verdict's figure. */
  dispatch_lag_ms: Percentiles & { mean: number; count: number };
  /** The first `max_concurrency` dispatches: from campaign.started. */
  first_wave_lag_ms: Percentiles & { mean: number; count: number };
  /** The others: from the outcome event that freed the line each took. */
  refill_lag_ms: Percentiles & { mean: number; count: number };
  /**
   * The refill lag in two parts: from the freeing outcome to the start of the round that dispatched
   * (0 when that round had begun before the outcome: it saw the outcome only when it decided), and
   * from the later of the two to the dispatch (the round's look-ups, and its wait for the stream).
   */
  refill_until_round_ms: Percentiles & { mean: number; count: number };
  refill_in_round_ms: Percentiles & { mean: number; count: number };
  /** How long a contact held its line: its dispatch to its outcome. */
  line_hold_ms: Percentiles & { mean: number; count: number };
  /** Pacing rounds that dispatched (campaign.dispatch_round markers), and dispatches per such round. */
  rounds: number;
  dispatches_per_round: number;
  /** The most contacts between dispatch and outcome at once (stream order: exact). */
  most_live: number;
}

const OUTCOMES = new Set(['campaign.contact_completed', 'campaign.contact_failed']);

/**
 * The figures of one finished campaign from its stream (stream order is the order the decider saw).
 *
 * Dispatch lag, per dispatch: the first `maxConcurrency` dispatches found every line free, and their
 * lag runs from campaign.started. Each later dispatch took a line that an outcome freed; the n-th
 * such dispatch is paired with the n-th outcome (lines are interchangeable, and under the
 * concurrency limit the n-th outcome always comes before it in the stream), and its lag runs from
 * that outcome's created_at to the dispatch's created_at. Skipped contacts hold no line.
 */
export function campaignFigures(events: readonly CampaignStreamEvent[], maxConcurrency: number): CampaignFigures {
  const started = events.find((e) => e.type === 'campaign.started');
  const completed = events.find((e) => e.type === 'campaign.completed');
  if (!started || !completed) throw new Error('the campaign has not both started and completed');
  const outcomes: number[] = [];
  const dispatchedAt = new Map<string, number>();
  const firstWave: number[] = [];
  const refill: number[] = [];
  const hold: number[] = [];
  const untilRound: number[] = [];
  const inRound: number[] = [];
  let roundAt = started.at;
  let dispatched = 0;
  let skipped = 0;
  let contacts = 0;
  let rounds = 0;
  let live = 0;
  let mostLive = 0;
  for (const e of events) {
    if (e.type === 'campaign.contacts_added') continue;
    if (e.type === 'campaign.dispatch_round') {
      rounds++;
      roundAt = e.roundAt ?? e.at;
    }
    if (e.type === 'campaign.contact_skipped') skipped++;
    if (e.type === 'campaign.contact_dispatched') {
      if (dispatched < maxConcurrency) firstWave.push(e.at - started.at);
      else {
        const freed = outcomes[dispatched - maxConcurrency];
        if (freed === undefined) throw new Error(`dispatch ${dispatched + 1} took a line no outcome had freed`);
        refill.push(e.at - freed);
        untilRound.push(Math.max(0, roundAt - freed));
        inRound.push(e.at - Math.max(roundAt, freed));
      }
      dispatched++;
      live++;
      if (e.contactId) dispatchedAt.set(e.contactId, e.at);
    }
    if (OUTCOMES.has(e.type)) {
      outcomes.push(e.at);
      live--;
      const from = e.contactId ? dispatchedAt.get(e.contactId) : undefined;
      if (from !== undefined) hold.push(e.at - from);
    }
    mostLive = Math.max(mostLive, live);
  }
  contacts = dispatched + skipped;
  const runS = (completed.at - started.at) / 1000;
  return {
    contacts,
    dispatched,
    finished: outcomes.length,
    skipped,
    run_s: round2(runS),
    contacts_per_s: runS > 0 ? round2(contacts / runS) : 0,
    dispatch_lag_ms: summary([...firstWave, ...refill]),
    first_wave_lag_ms: summary(firstWave),
    refill_lag_ms: summary(refill),
    refill_until_round_ms: summary(untilRound),
    refill_in_round_ms: summary(inRound),
    line_hold_ms: summary(hold),
    rounds,
    dispatches_per_round: rounds > 0 ? round2(dispatched / rounds) : 0,
    most_live: mostLive,
  };
}

function summary(values: readonly number[]): Percentiles & { mean: number; count: number } {
  const mean = values.length > 0 ? values.reduce((s, v) => s + v, 0) / values.length : 0;
  return { ...percentiles(values), mean: round2(mean), count: values.length };
}
