import { Inject, Injectable } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { EVENT_STORE, EventStore, type StoredEvent } from '../../event-store/event-store.port';
import { sessionStream } from '../domain/session.decider';
import { RecordingLinks } from '../infra/recording-links';
import { presentSession, type SessionRow, sessionRowFromStream } from './session-view';
import { SessionsQueries } from './sessions.queries';

/** The Session resource as the API shows it (`GET /v1/sessions/{id}`). */
export type SessionResource = ReturnType<typeof presentSession>;

/**
 * Sessions as the API presents them: the read model's row, or, between a write and the read model
 * catching up, the same folded from the session's stream (decision 16).
 */
@Injectable()
export class SessionViews {
  constructor(
    private readonly sessions: SessionsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly links: RecordingLinks,
  ) {}

  /** The tenant's session, or null for an unknown or another tenant's one. */
  async row(tenantId: string, sessionId: string): Promise<SessionRow | null> {
    return (
      (await this.sessions.get(tenantId, sessionId)) ??
      sessionRowFromStream(await this.store.readStream(sessionStream(sessionId)), tenantId)
    );
  }

  async load(tenantId: string, sessionId: string): Promise<SessionResource | null> {
    const row = await this.row(tenantId, sessionId);
    return row ? this.present(row) : null;
  }

  /** From the events a command just stored (nothing read); null when they are not the tenant's placement. */
  fromEvents(tenantId: string, events: readonly Pick<StoredEvent, 'type' | 'data' | 'metadata'>[]) {
    const row = sessionRowFromStream(events, tenantId);
    return row ? this.present(row) : null;
  }

  present(row: SessionRow): SessionResource {
    return presentSession(row, this.config, (recordingId) => this.links.link(recordingId).url);
  }
}

/** A session as `GET /v1/sessions/{id}` shows it, for other contexts (a test inbound call's answer); null if not the tenant's. */
export class GetSession extends Query<SessionResource | null> {
  constructor(
    readonly tenantId: string,
    readonly sessionId: string,
  ) {
    super();
  }
}

@QueryHandler(GetSession)
export class GetSessionHandler implements IQueryHandler<GetSession> {
  constructor(private readonly views: SessionViews) {}

  execute({ tenantId, sessionId }: GetSession): Promise<SessionResource | null> {
    return this.views.load(tenantId, sessionId);
  }
}
