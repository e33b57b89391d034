import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { StoredEvent } from '../../event-store/event-store.port';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { TtlCache } from '../../kernel/ttl-cache';
import { LogObserver } from '../../runtime/processing/log-observer';
import { ProjectionsService } from '../../runtime/processing/processors.service';
import { TENANT_EVENT_TYPES, TenantCommand, tenantStream } from '../domain/tenant.decider';
import { GetTenant, TenantsQueries } from './tenants.queries';

/** How long a key or tenant looked up is trusted without an event saying it changed (docs/security.md). */
export const LOOKUP_TTL_MS = 5_000;
/** Keys and tenants kept at most, each. */
export const LOOKUP_MAX_ENTRIES = 10_000;
/** How long a revocation seen in the log is remembered, whatever the read model says meanwhile. */
const REVOKED_MEMORY_MS = 10 * 60_000;

/** What the API-key guard needs of a key. */
export interface KeyLookup {
  readonly tenantId: string;
  readonly keyHash: string;
  readonly revoked: boolean;
}

/** A read of the read model under way, and the invalidation generation it started in. */
interface SharedRead<T> {
  readonly generation: number;
  readonly result: Promise<T>;
}

/**
 * The API-key guard's and `GetTenant`'s lookups, kept `LOOKUP_TTL_MS` in process so that a request
 * reads neither `api_keys` nor `tenants` while its key and tenant are cached.
 *
 * Every `tenant.*` event invalidates what is cached of its tenant, in every instance: the log
 * observer hands them over. The read models lag the log, so an invalidated tenant is then read
 * through, uncached, until every read model has applied the event (`waitForProjections`), and
 * invalidated once more. A revocation seen in the log refuses its key at once, even before the
 * read model has it. A command of this instance (revoke, suspend, reactivate) invalidates directly
 * once its read models are current, without waiting for the observer. Lookups that were under way
 * while an invalidation happened are not cached. Unknown keys and tenants are never cached.
 */
@Injectable()
export class TenantLookups implements OnModuleDestroy {
  private readonly keys = new TtlCache<string, KeyLookup>(LOOKUP_TTL_MS, LOOKUP_MAX_ENTRIES);
  private readonly tenants = new TtlCache<string, AuthenticatedTenant>(LOOKUP_TTL_MS, LOOKUP_MAX_ENTRIES);
  private readonly revoked = new TtlCache<string, true>(REVOKED_MEMORY_MS, LOOKUP_MAX_ENTRIES);
  /** Tenants whose events the read models have not all applied yet: read through, never cached. */
  private readonly unsettled = new Map<string, number>();
  /** Bumped by every invalidation: a lookup that started before one is not cached. */
  private generation = 0;
  private readonly stopObserving: () => void;
  /** Reads under way, joined by the requests that miss the same entry meanwhile (`shared`). */
  private readonly keyReads = new Map<string, SharedRead<KeyLookup | null>>();
  private readonly tenantReads = new Map<string, SharedRead<AuthenticatedTenant | null>>();

  constructor(
    private readonly queries: TenantsQueries,
    private readonly projections: ProjectionsService,
    observer: LogObserver,
  ) {
    this.stopObserving = observer.observe(TENANT_EVENT_TYPES, (events) => this.observed(events));
  }

  onModuleDestroy(): void {
    this.stopObserving();
  }

  async apiKey(prefix: string): Promise<KeyLookup | null> {
    const found = this.keys.get(prefix) ?? (await this.shared(this.keyReads, prefix, () => this.readKey(prefix)));
    if (!found) return null;
    // A revocation seen in the log counts before the read model has it.
    return !found.revoked && this.revoked.get(prefix) ? { ...found, revoked: true } : found;
  }

  async tenant(tenantId: string): Promise<AuthenticatedTenant | null> {
    return this.tenants.get(tenantId) ?? this.shared(this.tenantReads, tenantId, () => this.readTenant(tenantId));
  }

  /**
   * One read for the requests that miss the same entry together: when a key's entry expires under
   * 16 concurrent requests, all 16 missed it and each read `api_keys` and `tenants` (see
   * docs/benchmarks.md for what that cost). A request joins a read only if no invalidation
   * happened since that read started; otherwise it reads anew, as before.
   */
  private shared<T>(reads: Map<string, SharedRead<T>>, id: string, read: () => Promise<T>): Promise<T> {
    const running = reads.get(id);
    if (running && running.generation === this.generation) return running.result;
    const entry: SharedRead<T> = { generation: this.generation, result: read() };
    reads.set(id, entry);
    const done = (): void => {
      if (reads.get(id) === entry) reads.delete(id);
    };
    entry.result.then(done, done);
    return entry.result;
  }

  private async readKey(prefix: string): Promise<KeyLookup | null> {
    const generation = this.generation;
    const row = await this.queries.apiKey(prefix);
    if (!row) return null;
    const found = { tenantId: row.tenantId, keyHash: row.keyHash, revoked: row.revokedAt !== null };
    if (this.cacheable(generation, found.tenantId)) this.keys.set(prefix, found);
    return found;
  }

  private async readTenant(tenantId: string): Promise<AuthenticatedTenant | null> {
    const generation = this.generation;
    const row = await this.queries.tenant(tenantId);
    if (!row) return null;
    const tenant: AuthenticatedTenant = {
      tenantId: row.tenantId,
      plan: row.plan,
      status: row.status,
      email: row.email,
    };
    if (this.cacheable(generation, tenantId)) this.tenants.set(tenantId, tenant);
    return tenant;
  }

  /** After a command of this instance changed the tenant, its read models already current (read-your-writes). */
  changed(tenantId: string, change?: TenantCommand): void {
    if (change?.type === 'revoke_key') this.revoked.set(change.keyPrefix, true);
    this.invalidate(tenantId);
  }

  private cacheable(generation: number, tenantId: string): boolean {
    return generation === this.generation && !this.unsettled.has(tenantId);
  }

  private invalidate(tenantId: string): void {
    this.generation++;
    this.tenants.delete(tenantId);
    this.keys.deleteWhere((key) => key.tenantId === tenantId);
  }

  private observed(events: readonly StoredEvent[]): void {
    const last = events[events.length - 1];
    if (!last) return;
    const tenantIds = new Set<string>();
    for (const event of events) {
      if (!tenantStream.owns(event.streamId)) continue;
      tenantIds.add(tenantStream.idOf(event.streamId));
      const prefix = event.data.key_prefix;
      if (event.type === 'tenant.api_key_revoked' && typeof prefix === 'string') {
        this.revoked.set(prefix, true);
        this.keys.delete(prefix);
      }
    }
    for (const tenantId of tenantIds) {
      this.invalidate(tenantId);
      this.unsettled.set(tenantId, (this.unsettled.get(tenantId) ?? 0) + 1);
    }
    // Settled once every read model has applied these events (or the wait's bound passed).
    void this.projections
      .waitForProjections(last.position)
      .catch(() => false)
      .then(() => {
        for (const tenantId of tenantIds) {
          const n = (this.unsettled.get(tenantId) ?? 1) - 1;
          if (n > 0) this.unsettled.set(tenantId, n);
          else this.unsettled.delete(tenantId);
          this.invalidate(tenantId);
        }
      });
  }
}

@QueryHandler(GetTenant)
export class GetTenantHandler implements IQueryHandler<GetTenant> {
  constructor(private readonly lookups: TenantLookups) {}

  async execute({ tenantId }: GetTenant): Promise<AuthenticatedTenant | null> {
    const tenant = await this.lookups.tenant(tenantId);
    return tenant ? { ...tenant } : null;
  }
}
