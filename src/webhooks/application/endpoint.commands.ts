import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { CLOCK, Clock } from '../../kernel/clock';
import { SecretBox } from '../../kernel/secret-box';
import { newResourceId } from '../../kernel/idempotency-context';
import { EndpointCommand, endpointDecider, endpointStream } from '../domain/endpoint.decider';
import { generateWebhookSecret } from '../../kernel/signing/signing';
import { SECRET_BOX } from '../../infra/secret-box.provider';
import { DomainError } from '../../kernel/result';

/**
 * A retry of a request whose answer was lost, after its Idempotency-Key was released: the secret was
 * in that answer only and is never shown twice (decision 63), so the retry is a 409 naming the endpoint.
 */
function secretShownOnce(endpointId: string, what: string): DomainError {
  return new DomainError(
    'conflict',
    `Endpoint ${endpointId} ${what} by an earlier attempt of this request; its answer carried the secret, which is shown once, so rotate the secret to get a new one.`,
  );
}

export class CreateEndpoint extends Command<{ endpointId: string; secret: string; createdAt: string | null }> {
  constructor(
    readonly tenantId: string,
    readonly input: { url: string; events: string[]; description: string | null },
  ) {
    super();
  }
}

type Change =
  | { type: 'update'; url?: string; events?: string[]; description?: string | null }
  | { type: 'rotate_secret' }
  | { type: 'delete' }
  | { type: 'send_test' }
  | { type: 'suspend'; failureStreak: number; lastStatus: number | null }
  | { type: 'enable' };

/** Every other endpoint action; answers with the new secret (rotation) and the ids of emitted events. */
export class ChangeEndpoint extends Command<{ secret: string | null; eventIds: Record<string, string> }> {
  constructor(
    readonly tenantId: string,
    readonly endpointId: string,
    readonly change: Change,
  ) {
    super();
  }
}

@CommandHandler(CreateEndpoint)
export class CreateEndpointHandler implements ICommandHandler<CreateEndpoint> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ tenantId, input }: CreateEndpoint) {
    const endpointId = newResourceId('we');
    const generated = generateWebhookSecret();
    const { events, repeated } = await this.executor.execute(
      endpointStream(endpointId),
      endpointDecider,
      { type: 'create', tenantId, endpointId, ...input, secretSealed: this.box.seal(generated) },
      { tenantId },
      { readYourWrites: true },
    );
    if (repeated) throw secretShownOnce(endpointId, 'was created');
    // The caller answers from what was stored, even when the read models lag.
    return { endpointId, secret: generated, createdAt: events[0]?.metadata.created_at ?? null };
  }
}

@CommandHandler(ChangeEndpoint)
export class ChangeEndpointHandler implements ICommandHandler<ChangeEndpoint> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, endpointId, change }: ChangeEndpoint) {
    let secret: string | null = null;
    let command: EndpointCommand;
    const at = this.clock.now().toISOString();
    switch (change.type) {
      case 'rotate_secret':
        secret = generateWebhookSecret();
        command = { tenantId, type: 'rotate_secret', secretSealed: this.box.seal(secret) };
        break;
      case 'send_test':
        command = { tenantId, type: 'send_test', at };
        break;
      case 'suspend':
        command = { tenantId, type: 'suspend', at, failureStreak: change.failureStreak, lastStatus: change.lastStatus };
        break;
      default:
        command = { tenantId, ...change };
    }
    // Test events are decided on the endpoint's state but stored in a stream of their own, so that
    // many concurrent tests never contend with each other or with changes to the endpoint.
    const result =
      command.type === 'send_test'
        ? await this.executor.execute(
            endpointStream(endpointId),
            endpointDecider,
            command,
            { tenantId },
            { appendTo: `webhook_test-${endpointId}`, readYourWrites: true },
          )
        : await this.executor.execute(
            endpointStream(endpointId),
            endpointDecider,
            command,
            { tenantId },
            { readYourWrites: true },
          );
    if (secret !== null && result.repeated) throw secretShownOnce(endpointId, 'had its secret rotated');
    return { secret, eventIds: Object.fromEntries(result.events.map((e) => [e.type, e.id])) };
  }
}
