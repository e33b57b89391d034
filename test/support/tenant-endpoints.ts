/**
 * The tenants of one e2e suite, each with its own endpoint on the suite's one loopback receiver, and
 * what each endpoint received: every delivery signed with the endpoint's secret in both schemes, its
 * payload valid by the event catalog.
 */
import { eventCatalog } from '../../src/app.module';
import type { CallsService } from './calls-harness';
import {
  createEndpoint,
  type CreatedEndpoint,
  createTenant,
  type Envelope,
  envelopeOf,
  type Receiver,
  type TenantInfo,
  verifiesStandard,
  verifiesX,
} from './webhooks-harness';

export class TenantEndpoints {
  private readonly endpoints = new Map<string, CreatedEndpoint>();

  /** `events`: what each tenant's endpoint subscribes to (`['number.*']`). */
  constructor(
    private readonly h: CallsService,
    private readonly receiver: Receiver,
    private readonly events: string[],
  ) {}

  /** A new tenant with an endpoint on the receiver. */
  async add(label: string, plan?: 'pro' | 'starter'): Promise<TenantInfo> {
    const tenant = await createTenant(this.h.call, this.h.svc.adminToken, label, plan);
    const endpoint = await createEndpoint(this.h.call, tenant.api_key, { url: this.receiver.url, events: this.events });
    this.endpoints.set(tenant.tenant_id, endpoint);
    return tenant;
  }

  /** The tenant's deliveries that `where` picks, in arrival order, each checked (signatures, payload). */
  received(tenant: TenantInfo, where: (e: Envelope) => boolean = () => true): Envelope[] {
    const endpoint = this.endpoints.get(tenant.tenant_id);
    if (!endpoint) throw new Error(`no endpoint for tenant ${tenant.tenant_id}`);
    return this.receiver.requests
      .map((r) => ({ r, e: envelopeOf(r) }))
      .filter(({ e }) => e.tenant_id === tenant.tenant_id && where(e))
      .map(({ r, e }) => {
        expect(verifiesX(endpoint.secret, r)).toBe(true);
        expect(verifiesStandard(endpoint.secret, r)).toBe(true);
        expect(eventCatalog.validatePayload(e.type, e.data)).toEqual([]);
        return e;
      });
  }
}
