import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/**
 * Tables of the conversations context. `tool_secrets`: each tenant's tool signing secret, sealed
 * with the SECRET_BOX (WEBHOOK_SECRET_KEY), one row per tenant that rotated one. Not event-sourced:
 * the secret must never be in an event (decision 119).
 */
export class ConversationsToolSecrets1795773007643 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
CREATE TABLE IF NOT EXISTS tool_secrets (
  tenant_id text PRIMARY KEY,
  secret_sealed text NOT NULL,
  rotated_at timestamptz NOT NULL
)`);
  }
}

export const conversationsMigrations: readonly Migration[] = [ConversationsToolSecrets1795773007643];
