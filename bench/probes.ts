import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';

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
