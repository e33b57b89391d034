import type { Pool } from 'pg';
import { inTransaction } from '../../infra/database/transaction';

/** A pool or a transaction's client. A statement run on every tick is named (prepared once per connection). */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  query(statement: { name: string; text: string; values?: unknown[] }): Promise<unknown>;
}

/**
 * A timer that waits for something other than time (a tenant's dispatch hold to lift): its row is
 * parked on `key`, due only at `until`, until `release(key)` makes it due at once.
 */
export interface TimerPark {
  readonly key: string;
  /** When it runs anyway if nothing releases it: a bound on the wait. */
  readonly until: Date;
  /** The payload it runs with when it comes due (its kind's). */
  readonly payload: object;
  /**
   * Asked once the park is stored: false when what it waits for came meanwhile (then the row runs
   * again at once). With `release` under the same key's lock, no release falls between the two.
   */
  readonly stillWaiting: () => Promise<boolean>;
}

/** A claimed timer as its handler sees it: P is its kind's payload (`TimerKind`). */
export interface DueTimer<P = Readonly<Record<string, unknown>>> {
  readonly timerId: string;
  readonly kind: string;
  readonly payload: P;
  readonly dueAt: Date;
  readonly attempts: number;
  /** Wake-ups counted when it was claimed (`wake`): one that comes while it runs makes it run again. */
  readonly wakes: number;
}

/** A timer claimed under a lease: what its handler sees, and what this instance needs to renew and finish it. */
export interface ClaimedTimer extends DueTimer {
  /** The tenant it works for ('' for none): claims are fair across tenants. */
  readonly tenantId: string;
  /** This claim's token: renewals, completions and releases touch the row only while it is still this claim. */
  readonly leaseId: string;
}

export interface ClaimRequest {
  now: Date;
  leaseUntil: Date;
  leaseId: string;
  /** Timers to claim at most (the free slots). */
  limit: number;
  /** Handlers one tenant may have running at once in this instance. */
  perTenant: number;
  /** Handlers running now in this instance, per tenant. */
  busy: ReadonlyMap<string, number>;
  /** Timers this instance holds now (running or waiting in memory): never claimed again by it. */
  held: readonly string[];
  /**
   * The kinds this instance has handlers for: only those are claimed. A kind registered only by some
   * processes (the SIP dialer, in the media processes: docs/telephony.md) waits for one of them.
   */
  kinds: readonly string[];
}

/** The advisory-lock class of park keys (the second key is the key's hash): parks and releases of one key take turns. */
const PARK_LOCKS = 7210023;

interface ClaimedRow {
  timer_id: string | null;
  kind: string;
  payload: Record<string, unknown>;
  due_at: Date;
  attempts: number;
  wakes: number;
  tenant_id: string;
  next_due: Date | null;
}

/**
 * The statements of the durable timers' queue (timers.service.ts), fair across tenants as the webhook
 * delivery queue is across endpoints (src/webhooks/infra/delivery-claims.ts):
 *
 * - **Fair claims.** Each tenant with due timers contributes at most its free slots (`perTenant`
 *   minus its handlers running here), oldest due first; the candidates are taken in the order that
 *   fills the least busy tenant first (its running handlers plus the candidate's rank), then oldest
 *   due. A tenant's thousand due timers, or its slow handlers, hold at most its own slots: another
 *   tenant's timer is claimed in the next round that has a free slot.
 * - **Leases with a token.** A claim sets `locked_until` and a `lease_id`; the service renews the
 *   leases of the timers it still holds well before they lapse, and every later write of the row
 *   (done, next run, back-off, park) names the `lease_id`, so a run whose lease lapsed and was taken
 *   over changes nothing.
 */
export class TimerClaims {
  constructor(private readonly pool: Pool) {}

  /**
   * One statement: claims up to `limit` due timers and, in the same round trip, reads when the
   * earliest timer not claimed now becomes due (only when fewer than `limit` were claimed; tenants at
   * their bound are left out, since one of their handlers finishing wakes the loop).
   */
  async claim(r: ClaimRequest): Promise<{ timers: ClaimedTimer[]; nextDue: Date | null }> {
    const busy = [...r.busy].filter(([, n]) => n > 0);
    const full = busy.filter(([, n]) => n >= r.perTenant).map(([t]) => t);
    const { rows } = await this.pool.query<ClaimedRow>({
      name: 'timers_claim',
      text: `WITH busy AS (
         SELECT * FROM unnest($4::text[], $5::int[]) AS b(tenant_id, n)
       ), tenants AS (
         SELECT DISTINCT tenant_id FROM timers
         WHERE due_at <= $1 AND (locked_until IS NULL OR locked_until < $1) AND tenant_id <> ALL($8::text[])
           AND kind = ANY($10::text[])
       ), candidates AS (
         SELECT c.timer_id, c.due_at, coalesce(b.n, 0) + c.slot AS load
         FROM tenants t LEFT JOIN busy b USING (tenant_id) CROSS JOIN LATERAL (
           SELECT x.timer_id, x.due_at, row_number() OVER (ORDER BY x.due_at, x.timer_id) AS slot
           FROM timers x
           WHERE x.tenant_id = t.tenant_id AND x.due_at <= $1 AND (x.locked_until IS NULL OR x.locked_until < $1)
             AND x.timer_id <> ALL($7::uuid[]) AND x.kind = ANY($10::text[])
           ORDER BY x.due_at, x.timer_id
           LIMIT greatest(0, $6 - coalesce(b.n, 0))
         ) c
       ), picked AS (
         SELECT timer_id FROM candidates ORDER BY load, due_at, timer_id LIMIT $3
       ), due AS (
         SELECT timer_id FROM timers
         WHERE timer_id IN (SELECT timer_id FROM picked) AND due_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
         FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE timers t SET locked_until = $2, lease_id = $9, attempts = t.attempts + 1
         FROM due WHERE t.timer_id = due.timer_id
         RETURNING t.timer_id, t.kind, t.payload, t.due_at, t.attempts, t.wakes, t.tenant_id
       )
       SELECT timer_id, kind, payload, due_at, attempts, wakes, tenant_id, NULL::timestamptz AS next_due FROM claimed
       UNION ALL
       SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL,
         (SELECT min(due_at) FROM timers
          WHERE (locked_until IS NULL OR locked_until < $1) AND timer_id NOT IN (SELECT timer_id FROM due)
            AND timer_id <> ALL($7::uuid[]) AND tenant_id <> ALL($8::text[]) AND kind = ANY($10::text[]))
       WHERE (SELECT count(*) FROM due) < $3`,
      values: [
        r.now,
        r.leaseUntil,
        r.limit,
        busy.map(([t]) => t),
        busy.map(([, n]) => n),
        r.perTenant,
        r.held,
        full,
        r.leaseId,
        r.kinds,
      ],
    });
    const timers: ClaimedTimer[] = [];
    let nextDue: Date | null = null;
    for (const row of rows) {
      if (row.timer_id === null) {
        nextDue = row.next_due;
        continue;
      }
      timers.push({
        timerId: row.timer_id,
        kind: row.kind,
        payload: row.payload,
        dueAt: row.due_at,
        attempts: row.attempts,
        wakes: row.wakes,
        tenantId: row.tenant_id,
        leaseId: r.leaseId,
      });
    }
    return { timers, nextDue };
  }

  /** Extends the leases of these claims to `until`, each only while it is still that claim; returns the ids renewed. */
  async renew(held: readonly { timerId: string; leaseId: string }[], until: Date): Promise<Set<string>> {
    if (held.length === 0) return new Set();
    const { rows } = await this.pool.query<{ timer_id: string }>(
      `UPDATE timers t SET locked_until = $1 FROM unnest($2::uuid[], $3::uuid[]) AS h(id, lease_id)
       WHERE t.timer_id = h.id AND t.lease_id = h.lease_id RETURNING t.timer_id`,
      [until, held.map((h) => h.timerId), held.map((h) => h.leaseId)],
    );
    return new Set(rows.map((r) => r.timer_id));
  }

  /**
   * Deletes the rows of timers whose handlers finished, each only while it is still under its claim
   * (one statement); one woken while it ran (`wakes` moved) is released instead, due, to run again.
   */
  async finish(done: readonly ClaimedTimer[]): Promise<void> {
    if (done.length === 0) return;
    const params = [done.map((t) => t.timerId), done.map((t) => t.leaseId)];
    const { rowCount } = await this.pool.query({
      name: 'timers_finish',
      text: `DELETE FROM timers t USING unnest($1::uuid[], $2::uuid[], $3::int[]) AS d(id, lease_id, wakes)
       WHERE t.timer_id = d.id AND t.lease_id = d.lease_id AND t.wakes = d.wakes`,
      values: [...params, done.map((t) => t.wakes)],
    });
    if ((rowCount ?? 0) < done.length)
      await this.pool.query(
        `UPDATE timers t SET locked_until = NULL, lease_id = NULL, attempts = 0
         FROM unnest($1::uuid[], $2::uuid[]) AS d(id, lease_id) WHERE t.timer_id = d.id AND t.lease_id = d.lease_id`,
        params,
      );
  }

  /**
   * Moves claimed timers to their next run and releases them (one statement): each only while it is
   * still under its claim; one woken while it ran (`wakes` moved) keeps the earlier due time.
   */
  async reschedule(next: readonly { timer: ClaimedTimer; dueAt: Date; payload: unknown }[]): Promise<void> {
    if (next.length === 0) return;
    await this.pool.query({
      name: 'timers_reschedule',
      text: `UPDATE timers t SET due_at = CASE WHEN t.wakes = n.wakes THEN n.due_at ELSE LEAST(t.due_at, n.due_at) END,
         payload = n.payload, locked_until = NULL, lease_id = NULL, held_on = NULL, attempts = 0, last_error = NULL
       FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[], $5::jsonb[])
         AS n(id, lease_id, wakes, due_at, payload)
       WHERE t.timer_id = n.id AND t.lease_id = n.lease_id`,
      values: [
        next.map((n) => n.timer.timerId),
        next.map((n) => n.timer.leaseId),
        next.map((n) => n.timer.wakes),
        next.map((n) => n.dueAt),
        next.map((n) => JSON.stringify(n.payload)),
      ],
    });
  }

  /**
   * Parks a claimed timer on `park.key` and releases its claim, under the key's shared lock: a
   * `release` of the key holds it exclusively until its commit, so a park either commits before a
   * release's update (which then releases it) or after the release's commit (and its `stillWaiting`
   * then sees what the release's transaction committed).
   */
  async park(timer: ClaimedTimer, park: TimerPark): Promise<void> {
    await inTransaction(this.pool, async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock_shared($1::int, hashtext($2))', [PARK_LOCKS, park.key]);
      await tx.query(
        `UPDATE timers SET held_on = $3, due_at = CASE WHEN wakes = $4 THEN $5 ELSE LEAST(due_at, $5) END,
           payload = $6, locked_until = NULL, lease_id = NULL, attempts = 0, last_error = NULL
         WHERE timer_id = $1 AND lease_id = $2`,
        [timer.timerId, timer.leaseId, park.key, timer.wakes, park.until, JSON.stringify(park.payload)],
      );
    });
  }

  /** A parked timer whose wait ended while it parked: due at once. */
  async unpark(timerId: string, key: string, now: Date): Promise<void> {
    await this.pool.query(
      'UPDATE timers SET due_at = LEAST(due_at, $3), held_on = NULL WHERE timer_id = $1 AND held_on = $2',
      [timerId, key, now],
    );
  }

  /** Makes every timer parked on `key` due at `now`: in the caller's transaction `db`, else in its own. */
  async release(key: string, now: Date, db?: Queryable): Promise<void> {
    const run = async (q: Queryable): Promise<void> => {
      // Held to the commit: a park of this key either committed before this update, or waits for the commit.
      await q.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [PARK_LOCKS, key]);
      await q.query('UPDATE timers SET due_at = LEAST(due_at, $2), held_on = NULL WHERE held_on = $1', [key, now]);
    };
    if (db !== undefined) return run(db);
    await inTransaction(this.pool, run);
  }
}
