import type { Pool } from 'pg';
import type { Page, Position } from '../event-store.port';
import { EVENT_COLUMNS, type EventRow, RAW_ROWS, toStoredEvent } from './event-rows';

// Reading the log in commit order for PostgresEventStore: a page at a time, or several pages at once.

// Pages come back as plain rows, jsonb as its text (event-rows.ts), not as one JSON document built
// by json_agg: building that document cost PostgreSQL twice what sending the rows does, and parsing
// it all cost Node the data of every event, read or not (decision 175).

// The snapshot's xmin, once per statement: events of transactions from it on are not readable yet
// (one of them may still commit below a later one), and `hidden` says whether some already committed.
// `hidden` rides on every row; an empty page is one row of nulls that carries it (the second branch,
// only when nothing is readable after `after`). ORDER BY over the UNION ALL is a merge of the index
// order of the page with that one row: the page is not sorted again.
const READ_PAGE_SQL = `
  WITH horizon AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
       -- ORDER BY … LIMIT 1 rather than EXISTS: with the horizon unknown at planning time, EXISTS
       -- was planned as a sequential scan of the whole table (25 ms at 200,000 events per read).
       flag AS MATERIALIZED (SELECT coalesce((SELECT true FROM events WHERE transaction_id >= (SELECT xmin FROM horizon)
                                              ORDER BY transaction_id, global_position LIMIT 1), false) AS hidden)
  SELECT ${EVENT_COLUMNS}, (SELECT hidden FROM flag)
  FROM (SELECT * FROM events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < (SELECT xmin FROM horizon)
        ORDER BY transaction_id, global_position
        LIMIT $3) events
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, (SELECT hidden FROM flag)
  WHERE (SELECT true FROM events
         WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
           AND transaction_id < (SELECT xmin FROM horizon)
         ORDER BY transaction_id, global_position LIMIT 1) IS NULL
  ORDER BY transaction_id, global_position`;

// Pages read in parallel (`readPages`). One statement takes the horizon and finds where each page
// ends (an index-only walk over positions, no event is built), then each page is built by its own
// statement, on its own connection, bounded by those ends and by THAT horizon: every transaction
// below a snapshot's xmin has finished, so the events below it are a fixed set that a later
// snapshot sees alike, and each page is exactly what sequential paging would have returned (never
// an event past the horizon the first statement saw). Params: after ($1, $2), limit $3, pages $4.
const READ_PAGE_ENDS_SQL = `
  WITH horizon AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
       walk AS (SELECT transaction_id, global_position,
                       row_number() OVER (ORDER BY transaction_id, global_position) AS n
                FROM (SELECT transaction_id, global_position FROM events
                      WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
                        AND transaction_id < (SELECT xmin FROM horizon)
                      ORDER BY transaction_id, global_position
                      LIMIT $3::int * $4::int) w)
  SELECT (SELECT xmin FROM horizon)::text AS xmin,
         (SELECT count(*) FROM walk)::int AS found,
         coalesce((SELECT json_agg(json_build_array(transaction_id::text, global_position::text) ORDER BY n)
                   FROM walk WHERE n % $3::int = 0), '[]')::text AS ends,
         coalesce((SELECT true FROM events WHERE transaction_id >= (SELECT xmin FROM horizon)
                   ORDER BY transaction_id, global_position LIMIT 1), false) AS hidden`;

// One page between two positions, below a horizon taken before. Params: after ($1, $2), last
// ($3, $4) inclusive, horizon $5, limit $6 (a guard: the ends already bound the page).
const READ_PAGE_BETWEEN_SQL = `
  SELECT ${EVENT_COLUMNS} FROM events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND (transaction_id, global_position) <= ($3::text::xid8, $4::bigint)
    AND transaction_id < $5::text::xid8
  ORDER BY transaction_id, global_position
  LIMIT $6`;

/** The page after `after`: one statement. */
export async function readPage(pool: Pool, after: Position, limit: number): Promise<Page> {
  const { rows } = await pool.query<EventRow>({
    name: 'events_read_page',
    text: READ_PAGE_SQL,
    values: [after.commit < 0n ? '0' : after.commit.toString(), after.prepare.toString(), limit],
    ...RAW_ROWS,
  });
  // An empty page is one row of nulls, there only to carry `hidden`.
  const events = rows[0]?.[0] === null ? [] : rows.map(toStoredEvent);
  return { events, hidden: rows[0]?.[8] === 't' };
}

/**
 * Up to `count` consecutive pages of `limit` events after `after`, built concurrently on as many
 * connections: PostgreSQL builds a page on one backend, so one page at a time uses one
 * core. The pages are exactly those `readPage` would return one after another (same order, none
 * skipped; see READ_PAGE_ENDS_SQL); only the last may be short, and `hidden` is the same flag for
 * all of them (it matters for the last).
 */
export async function readPages(pool: Pool, after: Position, limit: number, count: number): Promise<Page[]> {
  if (count <= 1) return [await readPage(pool, after, limit)];
  const { rows } = await pool.query<{ xmin: string; found: number; ends: string; hidden: boolean }>({
    name: 'events_read_page_ends',
    text: READ_PAGE_ENDS_SQL,
    values: [after.commit < 0n ? '0' : after.commit.toString(), after.prepare.toString(), limit, count],
  });
  const head = rows[0];
  if (!head || head.found === 0) return [{ events: [], hidden: head?.hidden === true }];
  const ends = JSON.parse(head.ends) as [string, string][];
  // A short last page ends at the horizon: (xmin, -1) is below every event of the horizon's transaction.
  if (head.found % limit !== 0) ends.push([head.xmin, '-1']);
  let from: [string, string] = [after.commit < 0n ? '0' : after.commit.toString(), after.prepare.toString()];
  const reads = ends.map((end) => {
    const values = [from[0], from[1], end[0], end[1], head.xmin, limit];
    from = end;
    return pool.query<EventRow>({ name: 'events_read_page_between', text: READ_PAGE_BETWEEN_SQL, values, ...RAW_ROWS });
  });
  const pages = await Promise.all(reads);
  return pages.map((r) => ({ events: r.rows.map(toStoredEvent), hidden: head.hidden }));
}
