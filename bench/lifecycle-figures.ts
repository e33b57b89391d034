import { round2 } from './percentiles';

/**
 * The lifecycle benchmark's arithmetic, apart from its processes so that it can be tested alone:
 * the knee of a ladder, the figures read at a given rate, the order in which the comparison mode
 * (BENCH_COMPARE_ENTRY) alternates the two builds, and the ratios today/previous it reports.
 */

/** What these figures need of a step (lifecycle-ladder.ts's StepResult has more). */
export interface StepFigures {
  readonly phase: 'xacts' | 'ladder';
  readonly rate_per_s: number;
  readonly pass: boolean;
  readonly postgres: { readonly xacts_per_call: number };
  readonly service_rss_mb: { readonly peak_sampled: number | null };
}

/** What these figures need of one run of one build: a fresh service on a fresh database. */
export interface RunFigures {
  readonly idle: { readonly xacts_per_s: number };
  readonly steps: readonly StepFigures[];
}

export type Build = 'previous' | 'today';

export interface BuildSummary {
  /** One knee per run, in the order run; `knee` is their lower median (a rate the ladder measured). */
  readonly knees: number[];
  readonly knee: number;
  /** Median over the runs, by rate; null where no run measured that rate. */
  readonly xacts_per_call: Record<string, number | null>;
  readonly idle_xacts_per_s: number | null;
  /** Median of the runs' peak RSS at `rss_rate_per_s`; null when no ladder got that far. */
  readonly peak_rss_mb: number | null;
  readonly rss_rate_per_s: number;
}

export interface Comparison {
  readonly previous: BuildSummary;
  readonly today: BuildSummary;
  /** today / previous, rounded to 2 places; null where either side is missing or previous is 0. */
  readonly ratios: {
    readonly knee: number | null;
    readonly xacts_per_call: Record<string, number | null>;
  };
}

/**
 * The highest rate of the ladder whose step passed, the ladder read in the order it ran up to its
 * first failing step; 0 when the first step failed. The transactions phase does not count.
 */
export function kneeOf(steps: readonly StepFigures[]): number {
  let knee = 0;
  for (const step of steps) {
    if (step.phase !== 'ladder') continue;
    if (!step.pass) break;
    knee = step.rate_per_s;
  }
  return knee;
}

/** Transactions per call at `rate`: the transactions phase's step at that rate, else the ladder's. */
export function xactsPerCallAt(steps: readonly StepFigures[], rate: number): number | null {
  const at = (phase: StepFigures['phase']): StepFigures | undefined =>
    steps.find((s) => s.phase === phase && s.rate_per_s === rate);
  const step = at('xacts') ?? at('ladder');
  return step ? step.postgres.xacts_per_call : null;
}

/** The service's sampled peak RSS in the ladder's step at `rate` (passed or not); null when it did not run. */
export function peakRssAt(steps: readonly StepFigures[], rate: number): number | null {
  const step = steps.find((s) => s.phase === 'ladder' && s.rate_per_s === rate);
  return step?.service_rss_mb.peak_sampled ?? null;
}

/**
 * The order of the runs: previous then today in the first round, today then previous in the
 * second, and so on (A B B A A B …), so that neither build always runs first, on the cooler
 * machine or the emptier disk cache.
 */
export function alternationOrder(rounds: number): { build: Build; round: number }[] {
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds must be a whole number ≥ 1, got ${rounds}`);
  const order: { build: Build; round: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const pair: Build[] = round % 2 === 1 ? ['previous', 'today'] : ['today', 'previous'];
    for (const build of pair) order.push({ build, round });
  }
  return order;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return round2(value);
}

/** The median, or with an even count the lower of the two middle values: always one of the values. */
export function lowerMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}

export function ratio(today: number | null, previous: number | null): number | null {
  if (today === null || previous === null || previous === 0) return null;
  return round2(today / previous);
}

export function summariseBuild(
  runs: readonly RunFigures[],
  xactRates: readonly number[],
  rssRate: number,
): BuildSummary {
  const present = (values: (number | null)[]): number[] => values.filter((v): v is number => v !== null);
  const knees = runs.map((r) => kneeOf(r.steps));
  const xacts: Record<string, number | null> = {};
  for (const rate of xactRates) xacts[String(rate)] = median(present(runs.map((r) => xactsPerCallAt(r.steps, rate))));
  return {
    knees,
    knee: lowerMedian(knees) ?? 0,
    xacts_per_call: xacts,
    idle_xacts_per_s: median(runs.map((r) => r.idle.xacts_per_s)),
    peak_rss_mb: median(present(runs.map((r) => peakRssAt(r.steps, rssRate)))),
    rss_rate_per_s: rssRate,
  };
}

export function compareBuilds(
  previous: readonly RunFigures[],
  today: readonly RunFigures[],
  xactRates: readonly number[],
  rssRate: number,
): Comparison {
  const p = summariseBuild(previous, xactRates, rssRate);
  const t = summariseBuild(today, xactRates, rssRate);
  const xacts: Record<string, number | null> = {};
  for (const rate of xactRates) {
    const key = String(rate);
    xacts[key] = ratio(t.xacts_per_call[key] ?? null, p.xacts_per_call[key] ?? null);
  }
  return { previous: p, today: t, ratios: { knee: ratio(t.knee, p.knee), xacts_per_call: xacts } };
}
