import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../infra/database/database.tokens';
import {
  DASHBOARD_SESSION_TTL_MS,
  SIGN_IN_LINK_TTL_MS,
  hashCredential,
  isCredential,
  newCredential,
  sessionCookieName,
} from '../domain/dashboard-credentials';

export interface SignInLink {
  /** The token of the link (shown once, in the link itself). */
  readonly token: string;
  readonly expiresAt: Date;
}

export interface DashboardSession {
  readonly token: string;
  readonly tenantId: string;
  readonly expiresAt: Date;
  /** Where the link said to go after signing in, if anywhere. */
  readonly next: string | null;
}

/**
 * The dashboard's credentials: one-time sign-in links and the browser sessions they open. Both are
 * stored hashed in `dashboard_links` and `dashboard_sessions` (decision 46). A link is redeemed by one
 * conditional UPDATE, so two tabs, two instances or a replayed request redeem it once.
 */
@Injectable()
export class DashboardSignIn {
  /** The session cookie's name (`__Host-` under https). */
  readonly cookieName: string;
  /** Whether the cookie is `Secure`: BASE_URL is https. */
  readonly secure: boolean;
  private lastSweep = 0;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = config.baseUrl.startsWith('https:');
    this.cookieName = sessionCookieName(this.secure);
  }

  /** A new one-time link for the tenant; null for an unknown tenant, `suspended` for a suspended one. */
  async createLink(tenantId: string, next: string | null = null): Promise<SignInLink | 'suspended' | null> {
    // Read, not cached: a suspension made on another instance a moment ago counts here too.
    const { rows: found } = await this.pool.query<{ status: string }>(
      'SELECT status FROM tenants WHERE tenant_id = $1',
      [tenantId],
    );
    if (!found[0]) return null;
    if (found[0].status !== 'active') return 'suspended';
    const token = newCredential('dl');
    // Expiry on the database's clock, the one that checks it.
    const { rows } = await this.pool.query<{ expires_at: Date }>(
      `INSERT INTO dashboard_links (token_hash, tenant_id, next_path, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [hashCredential(token), tenantId, next, SIGN_IN_LINK_TTL_MS / 1000],
    );
    const expiresAt = rows[0]?.expires_at ?? new Date(Date.now() + SIGN_IN_LINK_TTL_MS);
    // Links and sessions long past their end are of no use to anyone: dropped about once a minute.
    if (Date.now() - this.lastSweep >= 60_000) {
      this.lastSweep = Date.now();
      await this.pool.query(
        `DELETE FROM dashboard_links WHERE expires_at < now() - interval '1 day';
         DELETE FROM dashboard_sessions WHERE expires_at < now() - interval '1 day'`,
      );
    }
    return { token, expiresAt };
  }

  /**
   * Of these addresses (lower case), those a tenant has, each with its tenant and the address as
   * stored: one query by the `lower(email)` index for a whole batch. An address two tenants share is left out.
   */
  async tenantsByEmails(addresses: readonly string[]): Promise<Map<string, { tenantId: string; email: string }>> {
    const found = new Map<string, { tenantId: string; email: string }>();
    if (addresses.length === 0) return found;
    const { rows } = await this.pool.query<{ address: string; tenant_id: string; email: string; n: number }>(
      `SELECT lower(email) AS address, min(tenant_id) AS tenant_id, min(email) AS email, count(*)::int AS n
         FROM tenants WHERE lower(email) = ANY($1::text[]) GROUP BY lower(email)`,
      [addresses],
    );
    for (const row of rows) if (row.n === 1) found.set(row.address, { tenantId: row.tenant_id, email: row.email });
    return found;
  }

  /**
   * The name of the tenant a link would sign in to, while the link can be used; null otherwise.
   * Opening the link shows it and uses nothing (decision 64): only the page's POST redeems.
   */
  async peek(linkToken: unknown): Promise<{ tenantName: string } | null> {
    if (!isCredential('dl', linkToken)) return null;
    const { rows } = await this.pool.query<{ name: string }>(
      `SELECT t.name FROM dashboard_links l JOIN tenants t ON t.tenant_id = l.tenant_id
       WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND t.status = 'active'`,
      [hashCredential(linkToken)],
    );
    return rows[0] ? { tenantName: rows[0].name } : null;
  }

  /**
   * Uses the link (once, before it expires, while its tenant is active) and opens a session; null for
   * a used, expired or unknown link, or a suspended tenant's.
   */
  async redeem(linkToken: unknown): Promise<DashboardSession | null> {
    if (!isCredential('dl', linkToken)) return null;
    const token = newCredential('ds');
    const { rows } = await this.pool.query<{ tenant_id: string; next_path: string | null; expires_at: Date }>(
      `WITH active AS (
         -- Locked, so that a suspension being applied waits for this session, or this sees it.
         SELECT t.tenant_id FROM dashboard_links l JOIN tenants t ON t.tenant_id = l.tenant_id
         WHERE l.token_hash = $1 AND t.status = 'active' FOR SHARE OF t
       ), used AS (
         UPDATE dashboard_links SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
           AND tenant_id IN (SELECT tenant_id FROM active)
         RETURNING tenant_id, next_path
       ), opened AS (
         INSERT INTO dashboard_sessions (session_hash, tenant_id, expires_at)
         SELECT $2, tenant_id, now() + make_interval(secs => $3) FROM used
         RETURNING expires_at
       )
       SELECT used.tenant_id, used.next_path, opened.expires_at FROM used, opened`,
      [hashCredential(linkToken), hashCredential(token), DASHBOARD_SESSION_TTL_MS / 1000],
    );
    const row = rows[0];
    return row ? { token, tenantId: row.tenant_id, expiresAt: row.expires_at, next: row.next_path } : null;
  }

  /** The tenant of a live session, or null (unknown, ended or expired). */
  async sessionTenant(sessionToken: unknown): Promise<string | null> {
    if (!isCredential('ds', sessionToken)) return null;
    const { rows } = await this.pool.query<{ tenant_id: string }>(
      `SELECT tenant_id FROM dashboard_sessions WHERE session_hash = $1 AND ended_at IS NULL AND expires_at > now()`,
      [hashCredential(sessionToken)],
    );
    return rows[0]?.tenant_id ?? null;
  }

  /**
   * Ends every live session of the tenant at once, in every instance (each request reads its session
   * from the database): the operator's route. Returns how many were ended.
   */
  async endAll(tenantId: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE dashboard_sessions SET ended_at = now() WHERE tenant_id = $1 AND ended_at IS NULL AND expires_at > now()`,
      [tenantId],
    );
    return rowCount ?? 0;
  }

  /** Sign-out: the session ends at once, in every instance. */
  async end(sessionToken: unknown): Promise<void> {
    if (!isCredential('ds', sessionToken)) return;
    await this.pool.query(
      `UPDATE dashboard_sessions SET ended_at = now() WHERE session_hash = $1 AND ended_at IS NULL`,
      [hashCredential(sessionToken)],
    );
  }
}
