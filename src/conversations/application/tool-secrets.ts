import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../infra/database/database.tokens';
import { SECRET_BOX } from '../../infra/secret-box.provider';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { SecretBox } from '../../kernel/secret-box';
import { generateWebhookSecret } from '../../kernel/signing/signing';

/**
 * Each tenant's tool signing secret (docs/conversations-api.md, "Tool signing secret"): tool calls
 * are signed with it exactly as webhooks are. Kept sealed in `tool_secrets`; opened only to sign.
 * A rotation replaces it at once: the previous secret signs nothing after it (decision 119).
 */
@Injectable()
export class ToolSecrets {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A new secret for the tenant, replacing any: returned this once, stored sealed. */
  async rotate(tenantId: string): Promise<string> {
    const secret = generateWebhookSecret();
    await this.pool.query(
      `INSERT INTO tool_secrets (tenant_id, secret_sealed, rotated_at) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, rotated_at = EXCLUDED.rotated_at`,
      [tenantId, this.box.seal(secret), this.clock.now()],
    );
    return secret;
  }

  /** The tenant's secret, opened (to sign a tool call), or null while it has never rotated one. */
  async secretOf(tenantId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM tool_secrets WHERE tenant_id = $1',
      [tenantId],
    );
    const sealed = rows[0]?.secret_sealed;
    return sealed === undefined ? null : this.box.open(sealed);
  }
}
