import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

/**
 * Tables of the webhooks context. `webhook_endpoints` is written by the outbox processor (so every
 * delivery sees the endpoints as of its event); the rest is operational state of the delivery worker.
 */
const WEBHOOKS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  endpoint_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  description text,
  status text NOT NULL,
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_tenant ON webhook_endpoints (tenant_id, created_at);

CREATE TABLE IF NOT EXISTS webhook_endpoint_health (
  endpoint_id text PRIMARY KEY,
  failure_streak integer NOT NULL DEFAULT 0,
  last_status integer,
  last_failure_at timestamptz
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  delivery_id text PRIMARY KEY,
  event_id uuid NOT NULL,
  endpoint_id text NOT NULL,
  tenant_id text NOT NULL,
  event_type text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL,
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  first_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  attempt_id bigserial PRIMARY KEY,
  delivery_id text NOT NULL,
  attempted_at timestamptz NOT NULL,
  http_status integer,
  error text,
  duration_ms integer NOT NULL,
  response_body text
);
CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts (delivery_id, attempt_id);

CREATE TABLE IF NOT EXISTS mail_outbox (
  mail_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  to_address text,
  subject text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
`;

/** Was 0004_webhooks. */
export class Webhooks0000000000040 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(WEBHOOKS_SCHEMA_SQL);
  }
}

/**
 * The fair claim (src/webhooks/infra/delivery-claims.ts) reads each endpoint's oldest due deliveries:
 * pending rows by endpoint and due time, so that a long history or another endpoint's backlog is
 * never scanned.
 */
export class WebhookDeliveriesEndpointDue0000000000100 extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending'`,
    );
  }
}

export const webhooksMigrations: readonly Migration[] = [
  Webhooks0000000000040,
  WebhookDeliveriesEndpointDue0000000000100,
];
