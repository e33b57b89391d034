import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiDoc, OperatorApi, shape } from '../../kernel/http/api-docs';
import { ChangeTenant, CreateTenant, IssueApiKey } from '../application/tenant.commands';
import { AdminGuard } from '../../infra/http/admin.guard';
import { CreateTenantDto } from './admin.dto';

const KEY = {
  api_key: { type: 'string', description: 'The API key (`sk_…`), shown this once.' },
  key_prefix: { type: 'string', description: 'Names the key in the logs and to revoke it.' },
};
const TENANT_STATUS = shape('TenantStatus', {
  tenant_id: { type: 'string' },
  status: { type: 'string', enum: ['active', 'suspended'] },
});
const KEY_EXAMPLE = { api_key: 'sk_test_9c2f…', key_prefix: 'sk_test_9c2f' };

/** The operator API (docs/api.md, "Operator API"), behind `Authorization: Bearer $ADMIN_TOKEN`. */
@OperatorApi('operator')
@UseGuards(AdminGuard)
@Controller('admin/v1')
export class AdminController {
  constructor(private readonly commands: CommandBus) {}

  @Post('tenants')
  @ApiDoc({
    id: 'createTenant',
    summary: 'Create a tenant',
    description:
      'A new tenant and its first API key, shown this once (a replay under the same Idempotency-Key is a 409).',
    status: 201,
    body: shape('NewTenant', {
      tenant_id: { type: 'string', description: 'The tenant id (`ten_…`).' },
      name: { type: 'string' },
      plan: { type: 'string', enum: ['starter', 'pro'] },
      ...KEY,
    }),
    returns: 'The tenant and its API key.',
    example: { tenant_id: 'ten_01jf8w2c4v6b8n0m2q4w', name: 'Acme', plan: 'pro', ...KEY_EXAMPLE },
    errors: [400, 409],
  })
  async createTenant(@Body() body: CreateTenantDto) {
    return this.commands.execute(
      new CreateTenant({ name: body.name, email: body.email ?? null, plan: body.plan ?? 'pro' }),
    );
  }

  @Post('tenants/:tenantId/api_keys')
  @ApiDoc({
    id: 'issueApiKey',
    summary: 'Issue an API key',
    description: 'Another key for the tenant, shown this once; the other keys keep working.',
    status: 201,
    body: shape('NewApiKey', KEY),
    returns: 'The key.',
    example: KEY_EXAMPLE,
    errors: [404, 409],
  })
  async issueKey(@Param('tenantId') tenantId: string) {
    return this.commands.execute(new IssueApiKey(tenantId));
  }

  @Delete('tenants/:tenantId/api_keys/:keyPrefix')
  @ApiDoc({
    id: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'The key stops working at once, on every instance.',
    body: shape('RevokedApiKey', { key_prefix: { type: 'string' }, revoked: { type: 'boolean', const: true } }),
    returns: 'The key, revoked.',
    example: { key_prefix: 'sk_test_9c2f', revoked: true },
    errors: [404],
  })
  async revokeKey(@Param('tenantId') tenantId: string, @Param('keyPrefix') keyPrefix: string) {
    await this.commands.execute(new ChangeTenant(tenantId, { type: 'revoke_key', keyPrefix }));
    return { key_prefix: keyPrefix, revoked: true };
  }

  @Post('tenants/:tenantId/suspend')
  @ApiDoc({
    id: 'suspendTenant',
    summary: 'Suspend a tenant',
    description: 'Its writes are refused (403) and its dashboard sessions end; reads keep working.',
    body: TENANT_STATUS,
    returns: 'The tenant, suspended.',
    example: { tenant_id: 'ten_01jf8w2c4v6b8n0m2q4w', status: 'suspended' },
    errors: [404, 409],
  })
  @HttpCode(200)
  async suspend(@Param('tenantId') tenantId: string) {
    await this.commands.execute(new ChangeTenant(tenantId, { type: 'suspend' }));
    return { tenant_id: tenantId, status: 'suspended' };
  }

  @Post('tenants/:tenantId/reactivate')
  @ApiDoc({
    id: 'reactivateTenant',
    summary: 'Reactivate a tenant',
    description: 'Lifts a suspension.',
    body: TENANT_STATUS,
    returns: 'The tenant, active.',
    example: { tenant_id: 'ten_01jf8w2c4v6b8n0m2q4w', status: 'active' },
    errors: [404, 409],
  })
  @HttpCode(200)
  async reactivate(@Param('tenantId') tenantId: string) {
    await this.commands.execute(new ChangeTenant(tenantId, { type: 'reactivate' }));
    return { tenant_id: tenantId, status: 'active' };
  }
}
