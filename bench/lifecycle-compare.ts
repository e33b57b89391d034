import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { alternationOrder, Build, compareBuilds, Comparison } from './lifecycle-figures';
import { LadderSettings, LifecycleRun, runLifecycle } from './lifecycle-ladder';
import { serviceEntry } from './service-process';
import { BenchContext } from './support';

/**
 * The lifecycle benchmark's comparison mode (BENCH_COMPARE_ENTRY=<previous build>/dist/main.js):
 * the previous build and today's (BENCH_SERVICE_ENTRY, else this build) run the whole benchmark
 * alternately in one session, previous first, then today, swapping the pair each round
 * (BENCH_COMPARE_ROUNDS, default 1). Every run has a fresh, empty database that its own service
 * migrates, a fresh service process and a fresh receiver: neither build inherits the other's
 * events, read models, timers or caches
 * (docs/decisions/0167-the-lifecycle-comparison-alternates-whole-runs-each-on-a.md). The report
 * gives each build's figures, the median over its runs, and the ratios today/previous.
 */

/** Where the peak RSS of each build is read: the ladder's step at this rate. */
export const RSS_RATE_PER_S = 100;
/** Today's knee below this share of the previous build's, or its transactions per call above that share: a regression. */
export const KNEE_RATIO_MIN = 0.9;
export const XACTS_RATIO_MAX = 1.1;

export interface BuildLabel {
  entry: string;
  /** The build's directory: the parent of its dist/. */
  dir: string;
  /** `git rev-parse HEAD` there when it is a git worktree's top level, else 'unknown'. */
  commit: string;
  /** Tracked files changed since that commit (the build may not be the commit's); null when unknown. */
  dirty: boolean | null;
}

type RunRecord = { build: Build; round: number; commit: string } & (LifecycleRun | { error: string });

export async function compareLifecycle(
  ctx: BenchContext,
  settings: LadderSettings,
  previousEntry: string,
  rounds: number,
): Promise<object> {
  const builds: Record<Build, BuildLabel> = {
    previous: describeBuild(serviceEntry(previousEntry)),
    today: describeBuild(serviceEntry()),
  };
  for (const build of ['previous', 'today'] as const) {
    const b = builds[build];
    ctx.log(`${build}: ${b.entry} at commit ${b.commit}${b.dirty ? ' (with uncommitted changes)' : ''}`);
  }
  const order = alternationOrder(rounds);
  const runs: RunRecord[] = [];
  for (const { build, round } of order) {
    const { commit, entry } = builds[build];
    const label = `${build} ${commit.slice(0, 7)} round ${round}`;
    const database = await ctx.scratchDatabase(`${build}_${round}`);
    try {
      const run = await runLifecycle({ ctx, databaseUrl: database.url, entry, settings, label });
      runs.push({ build, round, commit, ...run });
      ctx.log(`[${label}] knee ${run.knee_calls_per_s} calls/s`);
    } catch (err) {
      // One failed run (a build that does not start) should not cost the session the others.
      const message = err instanceof Error ? err.message : String(err);
      ctx.log(`[${label}] FAILED: ${message}`);
      runs.push({ build, round, commit, error: message });
    } finally {
      await database.drop();
    }
  }
  const completed = (build: Build): LifecycleRun[] =>
    runs.filter((r): r is RunRecord & LifecycleRun => r.build === build && !('error' in r));
  const comparison = compareBuilds(completed('previous'), completed('today'), settings.xactRates, RSS_RATE_PER_S);
  logComparison(ctx, builds, comparison);
  checkComparison(ctx, comparison, completed('previous').length > 0 && completed('today').length > 0);
  return {
    mode: 'compare',
    builds,
    order: order.map((o) => `${o.build} round ${o.round}`),
    database_per_run: 'fresh, empty, migrated by the run’s own service at start-up',
    rss_rate_per_s: RSS_RATE_PER_S,
    comparison,
    runs,
  };
}

/** The build's commit: git in the parent of its dist/, when that is a worktree's top level. */
export function describeBuild(entry: string): BuildLabel {
  const dir = dirname(dirname(entry));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(dir)) throw new Error('not the top level');
    return {
      entry,
      dir,
      commit: git('rev-parse', 'HEAD'),
      dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    };
  } catch {
    return { entry, dir, commit: 'unknown', dirty: null };
  }
}

function logComparison(ctx: BenchContext, builds: Record<Build, BuildLabel>, c: Comparison): void {
  const show = (v: number | null): string => (v === null ? '–' : String(v));
  const line = (build: Build): string => {
    const s = c[build];
    const xacts = Object.entries(s.xacts_per_call)
      .map(([rate, v]) => `${show(v)} at ${rate}/s`)
      .join(', ');
    return (
      `${build.padEnd(8)} ${builds[build].commit.slice(0, 7)}: knee ${s.knee} calls/s (runs ${s.knees.join(', ')}); ` +
      `pg xacts/call ${xacts}; idle ${show(s.idle_xacts_per_s)} xacts/s; ` +
      `peak RSS at ${s.rss_rate_per_s}/s ${show(s.peak_rss_mb)} MB`
    );
  };
  ctx.log(line('previous'));
  ctx.log(line('today'));
  const xactRatios = Object.entries(c.ratios.xacts_per_call)
    .map(([rate, v]) => `${show(v)} at ${rate}/s`)
    .join(', ');
  ctx.log(`today/previous: knee ${show(c.ratios.knee)}; pg xacts/call ${xactRatios}`);
}

/** Today's figures against the targets, and the ratios against the regression bounds. */
function checkComparison(ctx: BenchContext, c: Comparison, bothRan: boolean): void {
  if (!bothRan) return;
  const t = c.today;
  ctx.check('lifecycle_knee_calls_per_s', t.knee, 100);
  for (const [rate, value] of Object.entries(t.xacts_per_call)) {
    if (value !== null) ctx.check(`lifecycle_pg_xacts_per_call_at_${rate}`, value, 40, 'max');
  }
  if (t.idle_xacts_per_s !== null) ctx.check('lifecycle_idle_pg_xacts_per_s', t.idle_xacts_per_s, 5, 'max');
  if (t.peak_rss_mb !== null) ctx.check(`lifecycle_peak_rss_mb_at_${RSS_RATE_PER_S}`, t.peak_rss_mb, 300, 'max');
  if (c.ratios.knee !== null) ctx.check('lifecycle_knee_ratio_today_previous', c.ratios.knee, KNEE_RATIO_MIN);
  for (const [rate, value] of Object.entries(c.ratios.xacts_per_call)) {
    if (value !== null) ctx.check(`lifecycle_pg_xacts_per_call_ratio_at_${rate}`, value, XACTS_RATIO_MAX, 'max');
  }
}
