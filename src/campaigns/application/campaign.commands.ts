import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../kernel/clock';
import { newId, idFromSeed } from '../../kernel/ids';
import { currentIdempotencyKey, newResourceId } from '../../kernel/idempotency-context';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { DomainError } from '../../kernel/result';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { GetTenant } from '../../tenants';
import { CampaignDefinition, campaignDecider, campaignStream } from '../domain/campaign.decider';
import type { NewContact } from '../domain/contact';
import { zonesForContact } from '../domain/contact-zones';

/** A contact as a request gives it (already checked for shape by the API). */
export interface ContactInput {
  phone_number: string;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  timezone?: string | null;
}

/** Creates a campaign (a draft, or started at once for `POST /v1/campaigns/run`). */
export class CreateCampaign extends Command<{ campaignId: string }> {
  constructor(
    readonly tenantId: string,
    readonly definition: Omit<CampaignDefinition, 'campaign_id'>,
    readonly contacts: readonly ContactInput[],
    readonly start: boolean,
  ) {
    super();
  }
}

export class AddContacts extends Command<void> {
  constructor(
    readonly tenantId: string,
    readonly campaignId: string,
    readonly contacts: readonly ContactInput[],
  ) {
    super();
  }
}

export class ChangeCampaign extends Command<void> {
  constructor(
    readonly tenantId: string,
    readonly campaignId: string,
    readonly change: 'start' | 'pause' | 'resume',
  ) {
    super();
  }
}

/**
 * Contacts as the campaign keeps them: ids, the number in E.164 (null when not valid: it is skipped
 * as `invalid` when its turn comes), and the zones of its quiet hours.
 */
async function intake(contacts: readonly ContactInput[], seed: string): Promise<NewContact[]> {
  const key = currentIdempotencyKey();
  return Promise.all(
    contacts.map(async (c, i) => {
      const e164 = normalisePhoneNumber(c.phone_number);
      return {
        // Under an Idempotency-Key the ids are the retry's too.
        contact_id: key === undefined ? newId('con') : idFromSeed('con', `${key}:${seed}:${i}`),
        phone_number: c.phone_number,
        e164,
        email: c.email ?? null,
        first_name: c.first_name ?? null,
        last_name: c.last_name ?? null,
        timezone: c.timezone ?? null,
        zones: e164 === null ? [] : await zonesForContact(e164, c.timezone ?? null),
      };
    }),
  );
}

async function refuseSuspended(queries: QueryBus, tenantId: string, what: string): Promise<void> {
  const tenant = await queries.execute(new GetTenant(tenantId));
  if (tenant?.status === 'suspended')
    throw new DomainError('forbidden', `This account is suspended; campaigns cannot be ${what}.`);
}

@CommandHandler(CreateCampaign)
export class CreateCampaignHandler implements ICommandHandler<CreateCampaign> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, definition, contacts, start }: CreateCampaign) {
    if (start) await refuseSuspended(this.queries, tenantId, 'started');
    const campaignId = newResourceId('cmp');
    await this.executor.execute(
      campaignStream(campaignId),
      campaignDecider,
      {
        type: 'create',
        definition: { ...definition, campaign_id: campaignId },
        contacts: await intake(contacts, 'create'),
        at: this.clock.now().toISOString(),
        start,
      },
      { tenantId },
      { readYourWrites: true },
    );
    return { campaignId };
  }
}

@CommandHandler(AddContacts)
export class AddContactsHandler implements ICommandHandler<AddContacts> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ tenantId, campaignId, contacts }: AddContacts): Promise<void> {
    await this.executor.execute(
      campaignStream(campaignId),
      campaignDecider,
      { type: 'add_contacts', contacts: await intake(contacts, campaignId) },
      { tenantId },
      { readYourWrites: true },
    );
  }
}

@CommandHandler(ChangeCampaign)
export class ChangeCampaignHandler implements ICommandHandler<ChangeCampaign> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, campaignId, change }: ChangeCampaign): Promise<void> {
    if (change === 'start') await refuseSuspended(this.queries, tenantId, 'started');
    if (change === 'resume') await refuseSuspended(this.queries, tenantId, 'resumed');
    await this.executor.execute(
      campaignStream(campaignId),
      campaignDecider,
      { type: change, at: this.clock.now().toISOString() },
      { tenantId },
      { readYourWrites: true },
    );
  }
}
