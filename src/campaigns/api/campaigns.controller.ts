import { APP_CONFIG, AppConfig } from '../../config/config';
import { Inject, Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { ApiDoc, TenantApi } from '../../kernel/http/api-docs';
import { CAMPAIGN, CAMPAIGN_EXAMPLE, CAMPAIGN_PAGE, CONTACT_EXAMPLE, CONTACT_PAGE } from './campaigns.schemas';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { parseTimestamp } from '../../kernel/timestamp';
import { checkAgentConfig } from '../../sessions';
import { ApiKeyGuard } from '../../tenants';
import { ensureVoiceUsable } from '../../voices';
import { ensureCallerIdOwned } from '../../numbers';
import { AddContacts, ChangeCampaign, ContactInput, CreateCampaign } from '../application/campaign.commands';
import { CampaignsQueries } from '../application/campaigns.queries';
import type { CampaignSettings } from '../domain/campaign.decider';
import { isValidTimeZone } from '../domain/contact-zones';
import { AddContactsDto, ContactDto, CreateCampaignDto } from './campaigns.dto';
import { presentCampaign, presentContact } from './campaign-view';

const CONTACT_STATUSES = ['pending', 'dispatched', 'completed', 'failed', 'skipped'];

/** Contacts checked for what the DTO cannot say: an item that is an array, a zone that is not IANA's. An invalid number is accepted (skipped later). */
function contactsOf(contacts: readonly ContactDto[] | undefined): ContactInput[] {
  return (contacts ?? []).map((c, i) => {
    // ValidateNested checks the items of a nested array instead of refusing it.
    if (typeof c !== 'object' || c === null || Array.isArray(c))
      throw ApiError.invalid(`contacts[${i}] must be an object.`, `contacts[${i}]`);
    if (c.timezone != null && !isValidTimeZone(c.timezone))
      throw ApiError.invalid(
        `contacts[${i}].timezone must be an IANA time zone such as America/New_York.`,
        `contacts[${i}].timezone`,
      );
    return c;
  });
}

/** Campaigns: contact lists dialled by the pacer, one signed event per contact outcome. */
@TenantApi('campaigns')
@UseGuards(ApiKeyGuard)
@Controller('v1/campaigns')
export class CampaignsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly campaigns: CampaignsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiDoc({
    id: 'createCampaign',
    summary: 'Create a campaign',
    description:
      'A campaign in `draft`, with its contacts if given (more may be added); start it with /start. Contacts on the do-not-call list, with an invalid number or a duplicate are kept and skipped when dialled. A production campaign’s `from_number` must be an active phone number of the tenant (assigned by the operator or verified), else 422 `from_number_not_owned`; a test-mode campaign may use any number.',
    status: 201,
    body: CAMPAIGN,
    returns: 'The campaign, draft.',
    example: CAMPAIGN_EXAMPLE,
    errors: [400, 403, 422],
  })
  create(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateCampaignDto) {
    return this.createCampaign(tenant, body, false);
  }

  @Post('run')
  @ApiDoc({
    id: 'runCampaign',
    summary: 'Create and start a campaign',
    description:
      'As creating a campaign, then starting it at once: the pacer begins dialling its contacts. A production campaign’s `from_number` must be an active phone number of the tenant, else 422 `from_number_not_owned` and nothing is created or dialled.',
    status: 201,
    body: CAMPAIGN,
    returns: 'The campaign, running.',
    example: { ...CAMPAIGN_EXAMPLE, status: 'running', started_at: '2026-11-21T10:00:00.000Z' },
    errors: [400, 403, 409, 422],
  })
  run(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateCampaignDto) {
    return this.createCampaign(tenant, body, true);
  }

  @Get()
  @ApiDoc({
    id: 'listCampaigns',
    summary: 'List campaigns',
    description: 'The tenant’s campaigns, newest first.',
    body: CAMPAIGN_PAGE,
    returns: 'A page of campaigns.',
    example: { data: [CAMPAIGN_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A campaign id: the page after it' })
  async list(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    const page = await this.campaigns.list(tenant.tenantId, { startingAfter, limit: pageLimit(limitText) });
    if (!page) throw ApiError.notFound('campaign', 'starting_after');
    return { data: page.data.map(presentCampaign), has_more: page.hasMore };
  }

  @Get(':id')
  @ApiDoc({
    id: 'getCampaign',
    summary: 'Get a campaign',
    description: 'The campaign, its settings and how many of its contacts are in each status.',
    body: CAMPAIGN,
    returns: 'The campaign.',
    example: CAMPAIGN_EXAMPLE,
    errors: [404],
  })
  get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.load(tenant, id);
  }

  @Post(':id/contacts')
  @ApiDoc({
    id: 'addCampaignContacts',
    summary: 'Add contacts to a campaign',
    description: 'Adds contacts to a campaign that has not completed; a running campaign dials them too.',
    body: CAMPAIGN,
    returns: 'The campaign with its new counts.',
    example: CAMPAIGN_EXAMPLE,
    errors: [400, 404, 409],
  })
  @HttpCode(200)
  async addContacts(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Body() body: AddContactsDto,
  ) {
    await this.load(tenant, id);
    await this.commands.execute(new AddContacts(tenant.tenantId, id, contactsOf(body.contacts)));
    return this.load(tenant, id);
  }

  @Get(':id/contacts')
  @ApiDoc({
    id: 'listCampaignContacts',
    summary: 'List a campaign’s contacts',
    description: 'The campaign’s contacts in the order they were added, filtered by status.',
    body: CONTACT_PAGE,
    returns: 'A page of contacts.',
    example: { data: [CONTACT_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'status', required: false, enum: CONTACT_STATUSES })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A contact id: the page after it' })
  async contacts(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Param('id') id: string,
    @Query('status') status?: string,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    if (status !== undefined && !CONTACT_STATUSES.includes(status))
      throw ApiError.invalid(`status must be one of ${CONTACT_STATUSES.join(', ')}.`, 'status');
    const limit = pageLimit(limitText);
    await this.load(tenant, id);
    const page = await this.campaigns.contactsOf(tenant.tenantId, id, { status, startingAfter, limit });
    if (!page) throw ApiError.notFound('contact', 'starting_after');
    return { data: page.data.map(presentContact), has_more: page.hasMore };
  }

  @Post(':id/start')
  @ApiDoc({
    id: 'startCampaign',
    summary: 'Start a campaign',
    description:
      'Starts dialling a draft campaign. A change the campaign’s status does not allow is a 409. A production campaign whose `from_number` is no longer an active phone number of the tenant is a 422 `from_number_not_owned`, and stays as it was.',
    body: CAMPAIGN,
    returns: 'The campaign, running.',
    example: { ...CAMPAIGN_EXAMPLE, status: 'running' },
    errors: [404, 409, 422],
  })
  @HttpCode(200)
  start(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.change(tenant, id, 'start');
  }

  @Post(':id/pause')
  @ApiDoc({
    id: 'pauseCampaign',
    summary: 'Pause a campaign',
    description:
      'Stops dispatching new calls; calls in progress end normally. A change the campaign’s status does not allow is a 409.',
    body: CAMPAIGN,
    returns: 'The campaign, paused.',
    example: { ...CAMPAIGN_EXAMPLE, status: 'paused' },
    errors: [404, 409],
  })
  @HttpCode(200)
  pause(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.change(tenant, id, 'pause');
  }

  @Post(':id/resume')
  @ApiDoc({
    id: 'resumeCampaign',
    summary: 'Resume a campaign',
    description:
      'Resumes dispatching a paused campaign. A change the campaign’s status does not allow is a 409. A production campaign whose `from_number` is no longer an active phone number of the tenant is a 422 `from_number_not_owned`, and stays paused.',
    body: CAMPAIGN,
    returns: 'The campaign, running.',
    example: { ...CAMPAIGN_EXAMPLE, status: 'running' },
    errors: [404, 409, 422],
  })
  @HttpCode(200)
  resume(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.change(tenant, id, 'resume');
  }

  private async change(tenant: AuthenticatedTenant, id: string, change: ChangeCampaign['change']) {
    const campaign = await this.load(tenant, id);
    // Dialling (again) shows the caller ID: the number may have been released or moved since the
    // campaign was created (422 from_number_not_owned, decision 178). Pausing needs no number.
    if (change !== 'pause' && !campaign.test_mode)
      await ensureCallerIdOwned(this.queries, tenant.tenantId, campaign.from_number, 'from_number');
    await this.commands.execute(new ChangeCampaign(tenant.tenantId, id, change));
    return this.load(tenant, id);
  }

  private async createCampaign(tenant: AuthenticatedTenant, body: CreateCampaignDto, start: boolean) {
    const from = normalisePhoneNumber(body.from_number);
    if (!from)
      throw ApiError.invalid(
        'from_number must be a valid phone number in international format, e.g. +14155550000.',
        'from_number',
      );
    const contacts = contactsOf(body.contacts);
    const testMode = body.test_mode ?? false;
    const s = body.settings ?? {};
    let endsAt: string | null = null;
    if (s.ends_at != null) {
      const parsed = parseTimestamp(s.ends_at);
      if (!parsed) throw ApiError.invalid('settings.ends_at must be an RFC 3339 timestamp.', 'settings.ends_at');
      if (parsed.getTime() <= Date.now())
        throw ApiError.invalid('settings.ends_at must be in the future.', 'settings.ends_at');
      endsAt = parsed.toISOString();
    }
    const settings: CampaignSettings = {
      max_concurrency: s.max_concurrency ?? 5,
      quiet_hours: { start: s.quiet_hours?.start ?? '21:00', end: s.quiet_hours?.end ?? '08:00' },
      max_calls_per_number_per_day: s.max_calls_per_number_per_day ?? 3,
      ends_at: endsAt,
    };
    const agent = body.agent_config;
    // A cloned voice must have finished training when the campaign is created (422 voice_not_ready).
    if (agent?.voice_id)
      await ensureVoiceUsable(this.queries, tenant.tenantId, agent.voice_id, 'agent_config.voice_id');
    // A production campaign calls from one of the tenant's own active numbers, else 422
    // from_number_not_owned and nothing is created; a test campaign may show any number (decision 178).
    if (!testMode) await ensureCallerIdOwned(this.queries, tenant.tenantId, from, 'from_number');
    const { campaignId } = await this.commands.execute(
      new CreateCampaign(
        tenant.tenantId,
        {
          name: body.name,
          from_number: from,
          test_mode: testMode,
          agent_config: agent ? await checkAgentConfig(agent, this.config, tenant.tenantId) : null,
          settings,
        },
        contacts,
        start,
      ),
    );
    return this.load(tenant, campaignId);
  }

  private async load(tenant: AuthenticatedTenant, id: string) {
    const row = await this.campaigns.get(tenant.tenantId, id);
    if (!row) throw ApiError.notFound('campaign', 'campaign_id');
    return presentCampaign(row);
  }
}
