import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiDoc, shape, TenantApi } from '../../kernel/http/api-docs';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { ApiKeyGuard } from '../../tenants';
import { ToolSecrets } from '../application/tool-secrets';

export const TOOL_SECRET = shape('ToolSecret', {
  secret: {
    type: 'string',
    description:
      'The new tool signing secret (`whsec_…`), shown this once; the previous one signs nothing from now on.',
  },
});

/**
 * The tenant's tool signing secret (docs/conversations-api.md, "Tool signing secret"). Its answer is
 * shown once: the idempotency layer withholds a `secret` field from what it keeps, so a replay of
 * the same Idempotency-Key is a 409 that says so (src/infra/http/shown-once.ts, decision 63).
 */
@TenantApi('agent tools')
@UseGuards(ApiKeyGuard)
@Controller('v1/tool_secret')
export class ToolSecretController {
  constructor(private readonly secrets: ToolSecrets) {}

  @Post('rotate')
  @ApiDoc({
    id: 'rotateToolSecret',
    summary: 'Rotate the tool signing secret',
    description:
      'Makes a new secret that signs the agent’s tool calls (as webhooks are signed), shown this once, and replaces the previous one at once. A replay under the same Idempotency-Key is a 409: the secret is not kept to be shown again.',
    body: TOOL_SECRET,
    returns: 'The new secret.',
    example: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYq=' },
    errors: [409],
  })
  @HttpCode(200)
  async rotate(@CurrentTenant() tenant: AuthenticatedTenant) {
    return { secret: await this.secrets.rotate(tenant.tenantId) };
  }
}
