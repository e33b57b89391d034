import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { roomsSettings } from '../rooms.config';
import { CLOCK, Clock } from '../../kernel/clock';
import { currentIdempotencyKey, newResourceId } from '../../kernel/idempotency-context';
import { idFromSeed, newId } from '../../kernel/ids';
import { DomainError } from '../../kernel/result';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { GetTenant } from '../../tenants';
import { EndReason, RoomAgent, RoomCommand, roomDecider, RoomState, roomStream } from '../domain/room.decider';
import { RoomLinks } from '../infra/room-links';

export interface NewRoom {
  clientReferenceId: string | null;
  agentConfig: RoomAgent | null;
  voiceId: string | null;
  /** null: ROOM_DEFAULT_TTL. */
  expiresInSeconds: number | null;
  testScenario: 'agent_unreachable' | null;
}

/** `POST /v1/rooms`: a room and its signed link. */
export class CreateRoom extends Command<{ roomId: string }> {
  constructor(
    readonly tenantId: string,
    readonly room: NewRoom,
  ) {
    super();
  }
}

/** What happens to a room after its creation; the handler adds the time unless the action carries it. */
export type RoomActionInput =
  | { type: 'view' }
  | { type: 'join' }
  | { type: 'complete'; reason: EndReason; at?: Date }
  | { type: 'expire' }
  | { type: 'fail'; errorCode: string; errorMessage: string }
  | { type: 'fail_call'; errorCode: string; errorMessage: string }
  | { type: 'record'; recordingId: string; durationSeconds: number };

export class RoomAction extends Command<{ state: RoomState; applied: boolean }> {
  constructor(
    readonly tenantId: string,
    readonly roomId: string,
    readonly action: RoomActionInput,
  ) {
    super();
  }
}

/** A new id, or under an Idempotency-Key one made from it, so a retried creation names the same room parts. */
function partId(prefix: string, part: string): string {
  const key = currentIdempotencyKey();
  return key === undefined ? newId(prefix) : idFromSeed(prefix, `${key}:${part}`);
}

@CommandHandler(CreateRoom)
export class CreateRoomHandler implements ICommandHandler<CreateRoom> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: QueryBus,
    private readonly links: RoomLinks,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ tenantId, room }: CreateRoom): Promise<{ roomId: string }> {
    const tenant = await this.queries.execute(new GetTenant(tenantId));
    if (tenant?.status === 'suspended')
      throw new DomainError('forbidden', 'This account is suspended; rooms cannot be created.');
    const roomId = newResourceId('room');
    const ttlMs =
      room.expiresInSeconds === null
        ? settingsOf(this.config, roomsSettings).roomDefaultTtlMs
        : room.expiresInSeconds * 1000;
    const expiresAt = new Date(this.clock.now().getTime() + ttlMs);
    const agent = room.agentConfig;
    await this.executor.execute(
      roomStream(roomId),
      roomDecider,
      {
        type: 'create',
        definition: {
          room_id: roomId,
          participant_id: partId('par', 'participant'),
          session_id: partId('ses', 'session'),
          client_reference_id: room.clientReferenceId,
          agent_config: agent,
          voice_id: room.voiceId ?? agent?.voice_id ?? 'voice_default',
          expires_at: expiresAt.toISOString(),
          test_scenario: room.testScenario,
        },
        roomUrl: this.links.url(roomId, expiresAt),
      },
      { tenantId },
      { readYourWrites: true },
    );
    return { roomId };
  }
}

@CommandHandler(RoomAction)
export class RoomActionHandler implements ICommandHandler<RoomAction> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, roomId, action }: RoomAction) {
    const at = this.clock.now();
    const command: RoomCommand =
      action.type === 'fail' || action.type === 'record'
        ? action
        : action.type === 'complete'
          ? { ...action, at: (action.at ?? at).toISOString() }
          : action.type === 'fail_call'
            ? { ...action, at: at.toISOString() }
            : { type: action.type, at: at.toISOString() };
    // A participant's view and join answer from the read model right after (GET /v1/rooms/{id}).
    const readYourWrites = action.type === 'view' || action.type === 'join';
    const result = await this.executor.execute(
      roomStream(roomId),
      roomDecider,
      command,
      { tenantId },
      { readYourWrites },
    );
    return { state: result.state, applied: result.events.length > 0 };
  }
}
