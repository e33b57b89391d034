import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { sessionsSettings } from '../sessions.config';
import type { NewEvent } from '../../event-store/event-store.port';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { BillingHolds } from './billing-holds';
import { CLOCK, Clock } from '../../kernel/clock';
import { newResourceId } from '../../kernel/idempotency-context';
import { DomainError } from '../../kernel/result';
import type { SecretBox } from '../../kernel/secret-box';
import { SECRET_BOX } from '../../infra/secret-box.provider';
import { GetTenant } from '../../tenants';
import { RecordingLinks } from '../infra/recording-links';
import type { MediaSignal } from '../domain/media-signal';
import {
  OpenRoomSession,
  PlaceCall,
  SessionCommand,
  sessionDecider,
  sessionStream,
  SignalContext,
} from '../domain/session.decider';
import type { SetDisposition } from '../domain/session.disposition';
import type { SetAnalysis } from '../domain/session.analysis';
import { CREDITS_HOLD_REASON } from '../domain/session.state';

/**
 * Places a call. A caller that must stay idempotent (a pacer) names the session; otherwise a new id is
 * made. `privatePrompt`, when given, is what the media gateway's agent is told instead of
 * `agentConfig.prompt`: it is stored sealed, and the session keeps no turn text and no recording.
 */
export class PlaceCallCommand extends Command<{ sessionId: string; events: readonly NewEvent[] }> {
  constructor(
    readonly tenantId: string,
    readonly call: Omit<PlaceCall, 'type' | 'sessionId' | 'sealedPrompt' | 'holdReason'> & {
      sessionId?: string;
      privatePrompt?: string;
    },
  ) {
    super();
  }
}

/** Opens a WebRTC room's session (created and started at the join); a repeat opens nothing twice. */
export class OpenRoomSessionCommand extends Command<{ opened: boolean }> {
  constructor(
    readonly tenantId: string,
    readonly session: Omit<OpenRoomSession, 'type'>,
  ) {
    super();
  }
}

/**
 * A media signal, the watchdog, a recording purge, an evaluated disposition or a post-call analysis
 * for one session (simulator, gateway ingest, timers). The handler adds the time.
 */
export class SessionActionCommand extends Command<{ applied: boolean }> {
  constructor(
    readonly tenantId: string,
    readonly sessionId: string,
    readonly action:
      | { type: 'signal'; seq: number; signal: MediaSignal }
      | { type: 'watchdog' }
      | { type: 'hold'; reason: string }
      | { type: 'release' }
      | { type: 'purge_recording' }
      | Omit<SetDisposition, 'at'>
      | SetAnalysis,
    /** When it happened, if not now: a room's end is reported with the room's completion time. */
    readonly at?: Date,
  ) {
    super();
  }
}

@CommandHandler(PlaceCallCommand)
export class PlaceCallHandler implements ICommandHandler<PlaceCallCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: QueryBus,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly holds: BillingHolds,
  ) {}

  /**
   * Answers as soon as the call is stored; reads fall back to the stream until the read model has it.
   * An outbound production call placed while a hold is on the tenant (a depleted balance) is stored
   * held, so that the answer already says why it waits (`hold_reason`); its dispatch parks on the hold.
   */
  async execute({ tenantId, call }: PlaceCallCommand) {
    const tenant = await this.queries.execute(new GetTenant(tenantId));
    if (tenant?.status === 'suspended')
      throw new DomainError('forbidden', 'This account is suspended; calls cannot be placed.');
    const sessionId = call.sessionId ?? newResourceId('ses');
    const { privatePrompt, ...placed } = call;
    // A campaign's pacer asks the hold itself before it places anything: no second look per call.
    const billed = !call.testMode && (call.direction ?? 'outbound') === 'outbound' && !call.campaignId;
    const holdReason = billed && (await this.holds.isHeld(tenantId)) ? CREDITS_HOLD_REASON : null;
    const { events } = await this.executor.execute(
      sessionStream(sessionId),
      sessionDecider,
      {
        type: 'place',
        ...placed,
        sessionId,
        holdReason,
        ...(privatePrompt !== undefined ? { sealedPrompt: this.box.seal(privatePrompt) } : {}),
      },
      { tenantId },
    );
    // The stored events themselves: the caller can answer from them without reading them back.
    return { sessionId, events };
  }
}

@CommandHandler(OpenRoomSessionCommand)
export class OpenRoomSessionHandler implements ICommandHandler<OpenRoomSessionCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ tenantId, session }: OpenRoomSessionCommand) {
    const { events } = await this.executor.execute(
      sessionStream(session.sessionId),
      sessionDecider,
      { type: 'open_room', ...session },
      { tenantId },
    );
    return { opened: events.length > 0 };
  }
}

@CommandHandler(SessionActionCommand)
export class SessionActionHandler implements ICommandHandler<SessionActionCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly links: RecordingLinks,
  ) {}

  async execute({ tenantId, sessionId, action, at: when }: SessionActionCommand) {
    const now = when ?? this.clock.now();
    const at = now.toISOString();
    const context: SignalContext = {
      at,
      transcriptUrl: `${this.config.baseUrl}/v1/sessions/${sessionId}/transcript.json`,
      // session.recording_completed carries a signed link valid RECORDING_URL_TTL from now.
      recordingUrl: (id) => this.links.link(id, now).url,
      centsPerStartedMinute: settingsOf(this.config, sessionsSettings).callRateCentsPerMinute,
      purgeGraceMs: settingsOf(this.config, sessionsSettings).recordingPurgeGraceMs,
    };
    const command: SessionCommand =
      action.type === 'hold' || action.type === 'release' || action.type === 'set_analysis'
        ? action
        : action.type === 'purge_recording' || action.type === 'set_disposition'
          ? { ...action, at }
          : { ...action, ...context };
    const result = await this.executor.execute(sessionStream(sessionId), sessionDecider, command, { tenantId });
    return { applied: result.events.length > 0 };
  }
}
