import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Read model rows written by tenants.projection.ts (schema in tenants.migrations.ts). */
@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ type: 'text' }) plan!: 'starter' | 'pro';
  @Column({ type: 'text' }) status!: 'active' | 'suspended';
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ name: 'key_prefix', type: 'text' }) keyPrefix!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'key_hash', type: 'text' }) keyHash!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt!: Date | null;
}
