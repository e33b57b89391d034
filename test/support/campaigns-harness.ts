/**
 * Helpers for the campaign e2e suites: a tenant with its own loopback receiver subscribed to '*', its
 * campaigns' events as the receiver got them (each signature checked) and in commit order (the events
 * feed), and what the suites assert on them (lines in use, one terminal event per contact, skips).
 */
import { allEvents, CallsService } from './calls-harness';
import { eventually } from './eventually';
import {
  ApiResponse,
  createEndpoint,
  CreatedEndpoint,
  createTenant,
  Envelope,
  envelopeOf,
  Receiver,
  startReceiver,
  TenantInfo,
  verifiesStandard,
} from './webhooks-harness';

export const FROM = '+14155550000';
/** No quiet hours: a campaign with these calls whatever the time of day the suite runs at. */
export const ALWAYS = { start: '00:00', end: '00:00' };

export const OUTCOME_TYPES = new Set(['campaign.contact_completed', 'campaign.contact_failed']);
export const TERMINAL_CONTACT_TYPES = new Set([...OUTCOME_TYPES, 'campaign.contact_skipped']);

export interface CampaignTenant {
  tenant: TenantInfo;
  receiver: Receiver;
  endpoint: CreatedEndpoint;
  api<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  /** The campaign's events the receiver got (by campaign_id in the payload), in arrival order, each signed. */
  received(campaignId: string): Envelope[];
  /** The campaign's campaign.* events in commit order (GET /v1/events). */
  feed(campaignId: string): Promise<Envelope[]>;
  /**
   * Once the receiver has the campaign's campaign.completed and every campaign.* event of the feed,
   * signed, with the same id and body: the feed's campaign.* events.
   */
  completed(campaignId: string, timeoutMs?: number): Promise<Envelope[]>;
  /** POST /v1/campaigns/run (or /v1/campaigns when `draft`), expecting a 201; the campaign. */
  create(body: Record<string, unknown>, draft?: boolean): Promise<any>;
}

/** A new tenant with its own receiver and a '*' endpoint on it. */
export async function campaignTenant(h: CallsService, label: string): Promise<CampaignTenant> {
  const receiver = await startReceiver();
  const tenant = await createTenant(h.call, h.svc.adminToken, label);
  const endpoint = await createEndpoint(h.call, tenant.api_key, { url: receiver.url });
  const api = <T = any>(method: string, path: string, body?: unknown) =>
    h.call<T>(method, path, { token: tenant.api_key, ...(body === undefined ? {} : { body }) });
  const received = (campaignId: string): Envelope[] =>
    receiver.requests
      .map((r) => {
        if (!verifiesStandard(endpoint.secret, r)) throw new Error(`unsigned delivery ${r.body}`);
        return envelopeOf(r);
      })
      .filter((e) => e.data.campaign_id === campaignId);
  const ours = (campaignId: string) => (e: Envelope) =>
    e.type.startsWith('campaign.') && e.data.campaign_id === campaignId;
  const feed = async (campaignId: string) => (await allEvents(h.call, tenant.api_key)).filter(ours(campaignId));
  return {
    tenant,
    receiver,
    endpoint,
    api,
    received,
    feed,
    async completed(campaignId, timeoutMs = 30_000) {
      await eventually(() => received(campaignId).some((e) => e.type === 'campaign.completed'), timeoutMs, 50);
      return eventually(async () => {
        const events = await feed(campaignId);
        const byId = new Map(
          received(campaignId)
            .filter(ours(campaignId))
            .map((e) => [e.id, e]),
        );
        for (const e of events) expect(byId.get(e.id)).toEqual(e);
        expect(events).toHaveLength(byId.size);
        return events;
      }, 10_000);
    },
    async create(body, draft = false) {
      const res = await api('POST', draft ? '/v1/campaigns' : '/v1/campaigns/run', body);
      if (res.status !== 201) throw new Error(`create campaign: ${res.status} ${res.text}`);
      return res.body;
    },
  };
}

/** POST /admin/v1/tenants/{id}/suspend. */
export async function suspendTenant(h: CallsService, tenantId: string): Promise<void> {
  const res = await h.call('POST', `/admin/v1/tenants/${tenantId}/suspend`, { token: h.svc.adminToken });
  if (res.status !== 200) throw new Error(`suspend: ${res.status} ${res.text}`);
}

/** Contacts with these numbers (no quiet hours of their own). */
export const contactsFor = (numbers: readonly string[]) => numbers.map((phone_number) => ({ phone_number }));

export const ofType = (events: Envelope[], type: string) => events.filter((e) => e.type === type);

/** The terminal events of each contact_id (every contact dispatched or skipped is listed). */
export function terminalsByContact(events: Envelope[]): Map<string, string[]> {
  const byContact = new Map<string, string[]>();
  for (const e of events) {
    if (e.type !== 'campaign.contact_dispatched' && !TERMINAL_CONTACT_TYPES.has(e.type)) continue;
    const id = String(e.data.contact_id);
    const list = byContact.get(id) ?? [];
    if (TERMINAL_CONTACT_TYPES.has(e.type)) list.push(e.type);
    byContact.set(id, list);
  }
  return byContact;
}

/** [phone_number, skip_reason] of each skip, in commit order. */
export const skips = (events: Envelope[]) =>
  ofType(events, 'campaign.contact_skipped').map((e) => [e.data.phone_number, e.data.skip_reason]);

/** The most contacts live at once, from the dispatch and outcome events' timestamps. */
export function maxOverlap(events: Envelope[]): number {
  const edges: [number, number][] = [];
  for (const e of events) {
    if (e.type === 'campaign.contact_dispatched') edges.push([Date.parse(e.created_at), 1]);
    if (OUTCOME_TYPES.has(e.type)) edges.push([Date.parse(e.created_at), -1]);
  }
  // At one instant, count the ends first: a line freed and taken in the same millisecond is not two.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let live = 0;
  let most = 0;
  for (const [, d] of edges) {
    live += d;
    most = Math.max(most, live);
  }
  return most;
}

/** HH:MM of an instant in UTC. */
export const utcHHMM = (ms: number): string => new Date(ms).toISOString().slice(11, 16);
