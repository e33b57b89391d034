import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Written by credits.projection.ts (schema in credits.migrations.ts). bigint columns read as strings. */
@Entity({ name: 'credit_balances' })
export class CreditBalanceEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'balance_cents', type: 'bigint' }) balanceCents!: string;
  @Column({ name: 'threshold_cents', type: 'bigint' }) thresholdCents!: string;
  @Column({ type: 'boolean' }) depleted!: boolean;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

@Entity({ name: 'credit_topups' })
export class CreditTopupEntity {
  @PrimaryColumn({ name: 'topup_id', type: 'text' }) topupId!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'amount_cents', type: 'bigint' }) amountCents!: string;
  @Column({ type: 'text' }) status!: string;
  @Column({ name: 'processor_payment_intent_id', type: 'text' }) intentId!: string;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true }) settledAt!: Date | null;
}
