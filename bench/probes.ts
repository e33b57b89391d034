import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Client, type Pool } from 'pg';

/**
 * What the lifecycle benchmark reads from outside the service: the resident set of its process
 * (Linux /proc) and the transactions PostgreSQL counted for its database (pg_stat_database).
 */

// ---------------------------------------------------------------------------------------------
// Resident set of another process
// ---------------------------------------------------------------------------------------------

/** VmRSS (now) and VmHWM (the peak since start, or since resetPeakRss) in MB; null off Linux or once it is gone. */
export function processMemory(pid: number): { rss_mb: number; hwm_mb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const rss = kb('VmRSS');
    const hwm = kb('VmHWM');
    if (!Number.isFinite(rss)) return null;
    return { rss_mb: Math.round(rss / 1024), hwm_mb: Math.round((Number.isFinite(hwm) ? hwm : rss) / 1024) };
  } catch {
    return null;
  }
}

/** Resets VmHWM to the current RSS (writing 5 to clear_refs, Linux ≥ 4.0); false when not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples VmRSS every 100 ms; stop() gives the largest sample and VmHWM at that moment. */
export function sampleProcessRss(pid: number): {
  stop(): { peak_sampled_mb: number | null; vm_hwm_mb: number | null };
} {
  let peak: number | null = null;
  const sample = (): void => {
    const memory = processMemory(pid);
    if (memory) peak = Math.max(peak ?? 0, memory.rss_mb);
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { peak_sampled_mb: peak, vm_hwm_mb: processMemory(pid)?.hwm_mb ?? null };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL transactions of one database
// ---------------------------------------------------------------------------------------------

/**
 * Reads `xact_commit + xact_rollback` of the benchmark's database from pg_stat_database. It
 * connects to the server's `postgres` database so that its own reads are not counted; where that
 * database cannot be reached it reads from the benchmark's database and takes its own reads
 * (one transaction each) off.
 *
 * A backend publishes its counts when a transaction ends at most once a second, and otherwise
 * once it has been idle up to 10 s (PGSTAT_IDLE_INTERVAL): a reading is only complete after the
 * database has been quiet for that long, which is why the benchmark reads after STATS_SETTLE_MS.
 */
export class PgTransactionCounter {
  private reads = 0;

  private constructor(
    private readonly client: Client,
    private readonly database: string,
    private readonly countsOwnReads: boolean,
  ) {}

  static async open(databaseUrl: string): Promise<PgTransactionCounter> {
    const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    const elsewhere = new URL(databaseUrl);
    elsewhere.pathname = '/postgres';
    const client = new Client({ connectionString: elsewhere.toString() });
    try {
      await client.connect();
      return new PgTransactionCounter(client, database, false);
    } catch {
      await client.end().catch(() => undefined);
      const own = new Client({ connectionString: databaseUrl });
      await own.connect();
      return new PgTransactionCounter(own, database, true);
    }
  }

  /** The pid of the cluster's postmaster (the parent of this counter's backend), for its CPU. */
  async postmaster(): Promise<number> {
    const { rows } = await this.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return processTimes(rows[0]?.pid ?? -1)?.ppid ?? -1;
  }

  /** Transactions counted so far (less this counter's own earlier reads) and when it was read. */
  async read(): Promise<{ xacts: number; at: number }> {
    const result = await this.client.query<{ n: string }>(
      'SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = $1',
      [this.database],
    );
    const at = Date.now();
    const own = this.countsOwnReads ? this.reads : 0;
    this.reads++;
    return { xacts: Number(result.rows[0]?.n ?? 0) - own, at };
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// CPU spent, by this process and by the PostgreSQL cluster
// ---------------------------------------------------------------------------------------------

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every mainstream kernel). */
const CLOCK_TICKS_PER_S = 100;

/** utime, stime, cutime, cstime and ppid of a process, in ticks; null when it is gone or off Linux. */
function processTimes(pid: number): { self: number; children: number; ppid: number } | null {
  try {
    // The command name (field 2) may hold spaces: the fields counted start after its ')'.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const at = (n: number): number => Number(fields[n - 3]);
    return { self: at(14) + at(15), children: at(16) + at(17), ppid: at(4) };
  } catch {
    return null;
  }
}

/** The CPU time a process has spent so far (its own, not its children's), in ms; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  const times = processTimes(pid);
  return times ? (times.self * 1000) / CLOCK_TICKS_PER_S : null;
}

/** The postmaster's CPU (with that of the backends it reaped) plus that of its live children, in ms. */
export function clusterCpuMs(postmaster: number): number | null {
  const root = processTimes(postmaster);
  if (!root) return null;
  let ticks = root.self + root.children;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = processTimes(Number(entry));
    if (child?.ppid === postmaster) ticks += child.self;
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/** The pid of the PostgreSQL cluster's postmaster behind `pool` (the parent of its backend); -1 when not on this machine. */
export async function postmasterPid(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return processTimes(rows[0]?.pid ?? -1)?.ppid ?? -1;
}

/** CPU time spent, in ms; postgres_ms null when PostgreSQL does not run on this machine. */
export interface CpuSpent {
  node_ms: number;
  postgres_ms: number | null;
}

/**
 * CPU time spent between start and stop by this Node process and by the PostgreSQL cluster behind
 * `pool` (when it runs on this machine: the postmaster is the parent of the connection's backend;
 * the whole cluster counts, its background processes too).
 * On a machine shared with other work, CPU per event is steadier than events per second.
 */
export async function cpuMeter(pool: Pool): Promise<() => CpuSpent> {
  const postmaster = await postmasterPid(pool);
  const node0 = process.cpuUsage();
  const pg0 = clusterCpuMs(postmaster);
  return () => {
    const node = process.cpuUsage(node0);
    const pg = clusterCpuMs(postmaster);
    return {
      node_ms: Math.round((node.user + node.system) / 1000),
      postgres_ms: pg === null || pg0 === null ? null : Math.round(pg - pg0),
    };
  };
}
