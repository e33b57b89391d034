import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { newResourceId } from '../../kernel/idempotency-context';
import { DomainError } from '../../kernel/result';
import { generateApiKey } from '../domain/api-key';
import { Plan, TenantCommand, tenantDecider, tenantStream } from '../domain/tenant.decider';
import { TenantLookups } from './tenant-lookups';

/**
 * A retry of a request whose answer was lost, after its key was stored: the key was in that answer
 * only (it is kept hashed), so the retry cannot show it again and must not make another.
 */
function shownOnce(what: string): DomainError {
  return new DomainError(
    'conflict',
    `The ${what} by an earlier attempt of this request, whose answer carried the API key; it is not kept, so issue a new key.`,
  );
}

export class CreateTenant extends Command<{
  tenant_id: string;
  name: string;
  plan: Plan;
  api_key: string;
  key_prefix: string;
}> {
  constructor(readonly input: { name: string; email: string | null; plan: Plan }) {
    super();
  }
}

export class IssueApiKey extends Command<{ api_key: string; key_prefix: string }> {
  constructor(readonly tenantId: string) {
    super();
  }
}

/** Operator actions on an existing tenant that answer with nothing but success. */
export class ChangeTenant extends Command<void> {
  constructor(
    readonly tenantId: string,
    readonly change: Exclude<TenantCommand, { type: 'create' } | { type: 'issue_key' }>,
  ) {
    super();
  }
}

@CommandHandler(CreateTenant)
export class CreateTenantHandler implements ICommandHandler<CreateTenant> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ input }: CreateTenant) {
    const tenantId = newResourceId('ten');
    const { apiKey, issued } = generateApiKey();
    // The key must work on the very next request: read-your-writes.
    const { repeated } = await this.executor.execute(
      tenantStream(tenantId),
      tenantDecider,
      { type: 'create', tenantId, name: input.name, email: input.email, plan: input.plan, key: issued },
      { tenantId },
      { readYourWrites: true },
    );
    if (repeated) throw shownOnce('tenant was created');
    return { tenant_id: tenantId, name: input.name, plan: input.plan, api_key: apiKey, key_prefix: issued.prefix };
  }
}

@CommandHandler(IssueApiKey)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKey> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ tenantId }: IssueApiKey) {
    const { apiKey, issued } = generateApiKey();
    const { repeated } = await this.executor.execute(
      tenantStream(tenantId),
      tenantDecider,
      { type: 'issue_key', key: issued },
      { tenantId },
      { readYourWrites: true },
    );
    if (repeated) throw shownOnce('key was issued');
    return { api_key: apiKey, key_prefix: issued.prefix };
  }
}

@CommandHandler(ChangeTenant)
export class ChangeTenantHandler implements ICommandHandler<ChangeTenant> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly lookups: TenantLookups,
  ) {}

  async execute({ tenantId, change }: ChangeTenant): Promise<void> {
    await this.executor.execute(tenantStream(tenantId), tenantDecider, change, { tenantId }, { readYourWrites: true });
    // The read models are current (read-your-writes): this instance's next request sees the change
    // without waiting for the log observer, which tells the other instances.
    this.lookups.changed(tenantId, change);
  }
}
