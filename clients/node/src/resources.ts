/**
 * The resources over the generated types: each method is one typed openapi-fetch call (path, query
 * and body checked against src/generated/api.ts) whose answer's body it resolves to.
 */
import type { RequestOptions, Transport } from './http.js';
import type { paths } from './generated/api.js';
import type {
  Campaign,
  CampaignContact,
  CreditBalance,
  Deleted,
  Delivery,
  DeliveryQueued,
  DncEntry,
  DncRemoved,
  FeedEvent,
  Recovery,
  RotatedSecret,
  Session,
  TestEventSent,
  Topup,
  Transcript,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './types.js';
import { TERMINAL_SESSION_STATUSES } from './types.js';
import { AutoPaginatingList } from './pagination.js';

type Op<P extends keyof paths, M extends 'get' | 'post' | 'patch'> = NonNullable<paths[P][M]>;
/** The JSON request body of an operation, from the generated types. */
export type BodyOf<P extends keyof paths, M extends 'post' | 'patch'> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters of an operation, from the generated types; `limit` as a number. */
export type QueryOf<P extends keyof paths, M extends 'get'> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? Omit<NonNullable<Q>, 'limit'> & { limit?: number } : never;

export type CreateCallParams = BodyOf<'/v1/calls', 'post'>;
export type ListSessionsParams = Omit<QueryOf<'/v1/sessions', 'get'>, 'starting_after'>;
export type CreateCampaignParams = BodyOf<'/v1/campaigns', 'post'>;
export type AddContactsParams = BodyOf<'/v1/campaigns/{id}/contacts', 'post'>;
export type ListContactsParams = Omit<QueryOf<'/v1/campaigns/{id}/contacts', 'get'>, 'starting_after'>;
export type CreateWebhookEndpointParams = BodyOf<'/v1/webhook_endpoints', 'post'>;
export type UpdateWebhookEndpointParams = BodyOf<'/v1/webhook_endpoints/{id}', 'patch'>;
export type RecoverParams = BodyOf<'/v1/webhook_endpoints/{id}/recover', 'post'>;
export type ListEventsParams = QueryOf<'/v1/events', 'get'>;
export type UpdateCreditsParams = BodyOf<'/v1/credits', 'patch'>;
export type CreateTopupParams = BodyOf<'/v1/credits/topups', 'post'>;
export type AddDncParams = BodyOf<'/v1/dnc', 'post'>;

const str = (n: number | undefined): string | undefined => (n === undefined ? undefined : String(n));

export class Calls {
  constructor(private readonly t: Transport) {}

  /** Places one outbound call; resolves as soon as it is queued, to the session (status `queued`). */
  create(params: CreateCallParams, options?: RequestOptions): Promise<Session> {
    return this.t.body(this.t.api.POST('/v1/calls', { body: params, ...this.t.with(options) }));
  }
}

export class Sessions {
  constructor(private readonly t: Transport) {}

  get(sessionId: string, options?: RequestOptions): Promise<Session> {
    return this.t.body(
      this.t.api.GET('/v1/sessions/{id}', { params: { path: { id: sessionId } }, ...this.t.with(options) }),
    );
  }

  /** Newest first. `await` it for one page, or `for await` over every session. */
  list(params: ListSessionsParams = {}, options?: RequestOptions): AutoPaginatingList<Session> {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.body(
          this.t.api.GET('/v1/sessions', {
            params: { query: { ...params, limit: str(params.limit), starting_after: cursor } },
            ...this.t.with(options),
          }),
        ),
      (s) => s.session_id,
    );
  }

  transcript(sessionId: string, options?: RequestOptions): Promise<Transcript> {
    return this.t.body(
      this.t.api.GET('/v1/sessions/{id}/transcript.json', {
        params: { path: { id: sessionId } },
        ...this.t.with(options),
      }),
    );
  }

  /** The session's events in commit order, as envelopes. */
  async events(sessionId: string, options?: RequestOptions): Promise<FeedEvent[]> {
    const page = await this.t.body(
      this.t.api.GET('/v1/sessions/{id}/events', { params: { path: { id: sessionId } }, ...this.t.with(options) }),
    );
    // Any envelope in the document; the event union (generated from the same catalog) names each `data`.
    return page.data as FeedEvent[];
  }

  /**
   * Polls `get` until the session reaches a terminal status (completed, failed, no_answer, voicemail,
   * busy). Webhooks (or `vap listen`) are the better way to follow outcomes; this suits scripts and tests.
   */
  async waitUntilDone(
    sessionId: string,
    { intervalMs = 500, timeoutMs = 120_000 }: { intervalMs?: number; timeoutMs?: number } = {},
  ): Promise<Session> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const session = await this.get(sessionId);
      if (TERMINAL_SESSION_STATUSES.includes(session.status)) return session;
      if (Date.now() + intervalMs > deadline)
        throw new Error(`session ${sessionId} is still ${session.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

export class Campaigns {
  constructor(private readonly t: Transport) {}

  /** Creates a draft campaign. */
  create(params: CreateCampaignParams, options?: RequestOptions): Promise<Campaign> {
    return this.t.body(this.t.api.POST('/v1/campaigns', { body: params, ...this.t.with(options) }));
  }

  /** Creates a campaign with its contacts and starts it at once. */
  run(params: CreateCampaignParams, options?: RequestOptions): Promise<Campaign> {
    return this.t.body(this.t.api.POST('/v1/campaigns/run', { body: params, ...this.t.with(options) }));
  }

  get(campaignId: string, options?: RequestOptions): Promise<Campaign> {
    return this.t.body(
      this.t.api.GET('/v1/campaigns/{id}', { params: { path: { id: campaignId } }, ...this.t.with(options) }),
    );
  }

  list(params: { limit?: number } = {}, options?: RequestOptions): AutoPaginatingList<Campaign> {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.body(
          this.t.api.GET('/v1/campaigns', {
            params: { query: { limit: str(params.limit), starting_after: cursor } },
            ...this.t.with(options),
          }),
        ),
      (c) => c.campaign_id,
    );
  }

  addContacts(campaignId: string, params: AddContactsParams, options?: RequestOptions): Promise<Campaign> {
    return this.t.body(
      this.t.api.POST('/v1/campaigns/{id}/contacts', {
        params: { path: { id: campaignId } },
        body: params,
        ...this.t.with(options),
      }),
    );
  }

  listContacts(
    campaignId: string,
    params: ListContactsParams = {},
    options?: RequestOptions,
  ): AutoPaginatingList<CampaignContact> {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.body(
          this.t.api.GET('/v1/campaigns/{id}/contacts', {
            params: {
              path: { id: campaignId },
              query: { ...params, limit: str(params.limit), starting_after: cursor },
            },
            ...this.t.with(options),
          }),
        ),
      (c) => c.contact_id,
    );
  }

  start(campaignId: string, options?: RequestOptions): Promise<Campaign> {
    return this.action('/v1/campaigns/{id}/start', campaignId, options);
  }

  pause(campaignId: string, options?: RequestOptions): Promise<Campaign> {
    return this.action('/v1/campaigns/{id}/pause', campaignId, options);
  }

  resume(campaignId: string, options?: RequestOptions): Promise<Campaign> {
    return this.action('/v1/campaigns/{id}/resume', campaignId, options);
  }

  private action(
    path: '/v1/campaigns/{id}/start' | '/v1/campaigns/{id}/pause' | '/v1/campaigns/{id}/resume',
    campaignId: string,
    options?: RequestOptions,
  ): Promise<Campaign> {
    return this.t.body(this.t.api.POST(path, { params: { path: { id: campaignId } }, ...this.t.with(options) }));
  }
}

export class WebhookEndpoints {
  constructor(private readonly t: Transport) {}

  /** Registers a receiver; the answer carries its `secret`, shown this once. */
  create(params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.t.body(this.t.api.POST('/v1/webhook_endpoints', { body: params, ...this.t.with(options) }));
  }

  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    const page = await this.t.body(this.t.api.GET('/v1/webhook_endpoints', this.t.with(options)));
    return page.data;
  }

  get(endpointId: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.t.body(
      this.t.api.GET('/v1/webhook_endpoints/{id}', { params: { path: { id: endpointId } }, ...this.t.with(options) }),
    );
  }

  update(endpointId: string, params: UpdateWebhookEndpointParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.t.body(
      this.t.api.PATCH('/v1/webhook_endpoints/{id}', {
        params: { path: { id: endpointId } },
        body: params,
        ...this.t.with(options),
      }),
    );
  }

  delete(endpointId: string, options?: RequestOptions): Promise<Deleted> {
    return this.t.body(
      this.t.api.DELETE('/v1/webhook_endpoints/{id}', {
        params: { path: { id: endpointId } },
        ...this.t.with(options),
      }),
    );
  }

  /** A new secret; the old one stops signing at once. */
  rotateSecret(endpointId: string, options?: RequestOptions): Promise<RotatedSecret> {
    return this.t.body(
      this.t.api.POST('/v1/webhook_endpoints/{id}/rotate_secret', {
        params: { path: { id: endpointId } },
        ...this.t.with(options),
      }),
    );
  }

  /** Sends one `webhook.test` event to this endpoint only. */
  sendTest(endpointId: string, options?: RequestOptions): Promise<TestEventSent> {
    return this.t.body(
      this.t.api.POST('/v1/webhook_endpoints/{id}/test', {
        params: { path: { id: endpointId } },
        ...this.t.with(options),
      }),
    );
  }

  enable(endpointId: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.t.body(
      this.t.api.POST('/v1/webhook_endpoints/{id}/enable', {
        params: { path: { id: endpointId } },
        ...this.t.with(options),
      }),
    );
  }

  async deliveries(endpointId: string, params: { limit?: number } = {}, options?: RequestOptions): Promise<Delivery[]> {
    const page = await this.t.body(
      this.t.api.GET('/v1/webhook_endpoints/{id}/deliveries', {
        params: { path: { id: endpointId }, query: { limit: str(params.limit) } },
        ...this.t.with(options),
      }),
    );
    return page.data;
  }

  retryDelivery(endpointId: string, deliveryId: string, options?: RequestOptions): Promise<DeliveryQueued> {
    return this.t.body(
      this.t.api.POST('/v1/webhook_endpoints/{id}/deliveries/{deliveryId}/retry', {
        params: { path: { id: endpointId, deliveryId } },
        ...this.t.with(options),
      }),
    );
  }

  /** Re-sends every delivery to this endpoint since `since` that did not succeed. */
  recover(endpointId: string, params: RecoverParams, options?: RequestOptions): Promise<Recovery> {
    return this.t.body(
      this.t.api.POST('/v1/webhook_endpoints/{id}/recover', {
        params: { path: { id: endpointId } },
        body: params,
        ...this.t.with(options),
      }),
    );
  }
}

export class Credits {
  constructor(private readonly t: Transport) {}

  get(options?: RequestOptions): Promise<CreditBalance> {
    return this.t.body(this.t.api.GET('/v1/credits', this.t.with(options)));
  }

  update(params: UpdateCreditsParams, options?: RequestOptions): Promise<CreditBalance> {
    return this.t.body(this.t.api.PATCH('/v1/credits', { body: params, ...this.t.with(options) }));
  }

  createTopup(params: CreateTopupParams, options?: RequestOptions): Promise<Topup> {
    return this.t.body(this.t.api.POST('/v1/credits/topups', { body: params, ...this.t.with(options) }));
  }

  getTopup(topupId: string, options?: RequestOptions): Promise<Topup> {
    return this.t.body(
      this.t.api.GET('/v1/credits/topups/{id}', { params: { path: { id: topupId } }, ...this.t.with(options) }),
    );
  }

  listTopups(params: { limit?: number } = {}, options?: RequestOptions): AutoPaginatingList<Topup> {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.body(
          this.t.api.GET('/v1/credits/topups', {
            params: { query: { limit: str(params.limit), starting_after: cursor } },
            ...this.t.with(options),
          }),
        ),
      (t) => t.topup_id,
    );
  }
}

export class Dnc {
  constructor(private readonly t: Transport) {}

  async list(options?: RequestOptions): Promise<DncEntry[]> {
    const page = await this.t.body(this.t.api.GET('/v1/dnc', this.t.with(options)));
    return page.data;
  }

  add(params: AddDncParams, options?: RequestOptions): Promise<DncEntry> {
    return this.t.body(this.t.api.POST('/v1/dnc', { body: params, ...this.t.with(options) }));
  }

  remove(phoneNumber: string, options?: RequestOptions): Promise<DncRemoved> {
    return this.t.body(
      this.t.api.DELETE('/v1/dnc/{phoneNumber}', { params: { path: { phoneNumber } }, ...this.t.with(options) }),
    );
  }
}
