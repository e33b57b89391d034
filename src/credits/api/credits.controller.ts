import { Body, Controller, Get, HttpCode, Logger, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { ApiDoc, OperatorApi, TenantApi } from '../../kernel/http/api-docs';
import { BALANCE, BALANCE_EXAMPLE, GRANT, TOPUP, TOPUP_EXAMPLE, TOPUP_PAGE } from './credits.schemas';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { AdminGuard } from '../../infra/http/admin.guard';
import { ApiKeyGuard, GetTenant } from '../../tenants';
import { CreditsQueries } from '../application/credits.queries';
import { ChangeLedger, RequestTopup } from '../application/ledger.commands';
import { CURRENCY } from '../domain/ledger.decider';
import { PaymentProcessorUnavailable, PaymentsNotConfigured } from '../domain/payment-processor';
import type { CreditTopupEntity } from '../projections/credit.entity';
import { CreateTopupDto, GrantCreditDto, UpdateCreditsDto } from './credits.dto';

const presentTopup = (t: CreditTopupEntity) => ({
  topup_id: t.topupId,
  status: t.status,
  amount_cents: Number(t.amountCents),
  currency: CURRENCY,
  processor_payment_intent_id: t.intentId,
  failure_reason: t.failureReason,
  created_at: t.createdAt.toISOString(),
  settled_at: t.settledAt?.toISOString() ?? null,
});

/** The tenant's prepaid balance, its warning threshold and its top-ups (docs/credits.md). */
@TenantApi('credits')
@UseGuards(ApiKeyGuard)
@Controller('v1/credits')
export class CreditsController {
  private readonly logger = new Logger('Credits');

  constructor(
    private readonly commands: CommandBus,
    private readonly credits: CreditsQueries,
  ) {}

  @Get()
  @ApiDoc({
    id: 'getCredits',
    summary: 'Get the credit balance',
    description: 'The prepaid balance and the threshold below which `credits.low` is sent.',
    body: BALANCE,
    returns: 'The balance.',
    example: BALANCE_EXAMPLE,
    errors: [],
  })
  get(@CurrentTenant() tenant: AuthenticatedTenant) {
    return this.present(tenant.tenantId);
  }

  @Patch()
  @ApiDoc({
    id: 'updateCredits',
    summary: 'Set the low-balance threshold',
    description: 'Sets `threshold_cents`, below which `credits.low` is sent.',
    body: BALANCE,
    returns: 'The balance with its new threshold.',
    example: BALANCE_EXAMPLE,
    errors: [400, 403],
  })
  async update(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: UpdateCreditsDto) {
    await this.commands.execute(
      new ChangeLedger(tenant.tenantId, { type: 'set_threshold', thresholdCents: body.threshold_cents }, true),
    );
    return this.present(tenant.tenantId);
  }

  /**
   * Allowed to a suspended tenant too (a suspended tenant can still top up). A 409
   * `payments_not_configured` when no processor is configured (docs/credits.md).
   */
  @Post('topups')
  @ApiDoc({
    id: 'createTopup',
    summary: 'Top up the credit balance',
    description:
      'Creates a payment intent with the payment processor; the amount is added when the payment settles (`credits.topup_succeeded`). A 409 `payments_not_configured` when no processor is configured.',
    status: 201,
    body: TOPUP,
    returns: 'The top-up, pending.',
    example: TOPUP_EXAMPLE,
    errors: [400, 409],
  })
  async topup(@CurrentTenant() tenant: AuthenticatedTenant, @Body() body: CreateTopupDto) {
    let topupId: string;
    try {
      ({ topupId } = await this.commands.execute(new RequestTopup(tenant.tenantId, body.amount_cents)));
    } catch (err) {
      if (err instanceof PaymentsNotConfigured) throw new ApiError(409, 'payments_not_configured', err.message);
      if (err instanceof PaymentProcessorUnavailable) {
        this.logger.warn(err.message);
        throw new ApiError(503, 'service_unavailable', 'The payment processor could not be reached; retry shortly.');
      }
      throw err;
    }
    return this.loadTopup(tenant.tenantId, topupId);
  }

  @Get('topups')
  @ApiDoc({
    id: 'listTopups',
    summary: 'List top-ups',
    description: 'The tenant’s top-ups, newest first.',
    body: TOPUP_PAGE,
    returns: 'A page of top-ups.',
    example: { data: [TOPUP_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A top-up id: the page after it' })
  async topups(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    const limit = pageLimit(limitText);
    const page = await this.credits.listTopups(tenant.tenantId, { startingAfter, limit });
    if (!page) throw ApiError.notFound('top-up', 'starting_after');
    return { data: page.data.map(presentTopup), has_more: page.hasMore };
  }

  @Get('topups/:id')
  @ApiDoc({
    id: 'getTopup',
    summary: 'Get a top-up',
    description: 'One top-up and its status.',
    body: TOPUP,
    returns: 'The top-up.',
    example: TOPUP_EXAMPLE,
    errors: [404],
  })
  getTopup(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    return this.loadTopup(tenant.tenantId, id);
  }

  private async loadTopup(tenantId: string, topupId: string) {
    const row = await this.credits.topup(tenantId, topupId);
    if (!row) throw ApiError.notFound('top-up', 'topup_id');
    return presentTopup(row);
  }

  private async present(tenantId: string) {
    const b = await this.credits.balance(tenantId);
    return { balance_cents: b.balanceCents, threshold_cents: b.thresholdCents, currency: CURRENCY };
  }
}

/** The operator's grant: an adjustment of a tenant's balance, not a top-up. */
@OperatorApi('operator')
@UseGuards(AdminGuard)
@Controller('admin/v1/tenants')
export class AdminCreditsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post(':tenantId/credits')
  @ApiDoc({
    id: 'grantCredits',
    summary: 'Grant credits to a tenant',
    description: 'An operator’s adjustment of a tenant’s balance (negative takes credit away), not a top-up.',
    body: GRANT,
    returns: 'The grant and the balance after it.',
    example: { tenant_id: 'ten_01jf8w2c4v6b8n0m2q4w', granted_cents: 5000, balance_cents: 5000 },
    errors: [400, 404],
  })
  @HttpCode(200)
  async grant(@Param('tenantId') tenantId: string, @Body() body: GrantCreditDto) {
    if (!(await this.queries.execute(new GetTenant(tenantId)))) throw ApiError.notFound('tenant', 'tenant_id');
    const state = await this.commands.execute(
      new ChangeLedger(tenantId, { type: 'grant', amountCents: body.amount_cents }, true),
    );
    return { tenant_id: tenantId, granted_cents: body.amount_cents, balance_cents: state.balanceCents };
  }
}
