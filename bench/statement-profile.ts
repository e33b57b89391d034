import { Client } from 'pg';

/**
 * PostgreSQL's statement counts of one benchmark step, per call: which statements a test call costs
 * and how many of each (pg_stat_statements). The extension must be preloaded by the server
 * (`shared_preload_libraries = 'pg_stat_statements'`, a restart); the benchmark then creates it in
 * its database. Counters are server-wide: the profile keeps the benchmark database's rows only, so
 * the counter's own queries (made from the `postgres` database where it can) do not show.
 */
export interface StatementRow {
  /** Executions per call of the step (the idle service's share included). */
  per_call: number;
  calls: number;
  total_ms: number;
  query: string;
}

const QUERY_CHARS = 160;

export class StatementProfile {
  private constructor(
    private readonly client: Client,
    private readonly database: string,
  ) {}

  /** null when pg_stat_statements is not preloaded on the server (nothing to profile with). */
  static async open(databaseUrl: string): Promise<StatementProfile | null> {
    const own = new Client({ connectionString: databaseUrl });
    await own.connect();
    try {
      await own.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await own.query('SELECT count(*) FROM pg_stat_statements');
    } catch {
      return null;
    } finally {
      await own.end().catch(() => undefined);
    }
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    return new StatementProfile(client, decodeURIComponent(new URL(databaseUrl).pathname.slice(1)));
  }

  async reset(): Promise<void> {
    await this.client.query('SELECT pg_stat_statements_reset()');
  }

  /** The `top` statements by executions, and all statements counted, per call of `calls`. */
  async read(calls: number, top: number): Promise<{ statements_per_call: number; top: StatementRow[] }> {
    const { rows } = await this.client.query<{ calls: string; total_ms: number; query: string }>(
      `SELECT s.calls::text AS calls, s.total_exec_time AS total_ms, s.query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = $1 AND s.query NOT LIKE '%pg_stat_statements%'
        ORDER BY s.calls DESC`,
      [this.database],
    );
    const perCall = (n: number): number => (calls > 0 ? Math.round((n / calls) * 100) / 100 : 0);
    const all = rows.reduce((sum, r) => sum + Number(r.calls), 0);
    return {
      statements_per_call: perCall(all),
      top: rows.slice(0, top).map((r) => ({
        per_call: perCall(Number(r.calls)),
        calls: Number(r.calls),
        total_ms: Math.round(r.total_ms),
        query: r.query.replace(/\s+/g, ' ').slice(0, QUERY_CHARS),
      })),
    };
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
