/** Given/when/then on the tenant decider (pure). */
import { DeciderSpecification } from '../../../test/support/decider-specification';
import { fold } from '../../kernel/decider';
import { TenantCommand, tenantDecider, TenantEvent, tenantStream } from './tenant.decider';

const KEY = { prefix: 'vap_live_abcd', hash: 'h'.repeat(64) };
const KEY2 = { prefix: 'vap_live_efgh', hash: 'g'.repeat(64) };

const spec = DeciderSpecification.for(tenantDecider);

const created = (plan: 'starter' | 'pro' = 'pro'): TenantEvent[] => [
  { type: 'tenant.created', data: { tenant_id: 'ten_1', name: 'Acme', email: 'ops@acme.example', plan } },
  { type: 'tenant.api_key_issued', data: { key_prefix: KEY.prefix, key_hash: KEY.hash } },
];
const suspended: TenantEvent = { type: 'tenant.suspended', data: {} };
const reactivated: TenantEvent = { type: 'tenant.reactivated', data: {} };

describe('tenant decider', () => {
  it('names the stream', () => {
    expect(tenantStream('ten_1')).toBe('tenant-ten_1');
  });

  it('create → tenant.created and the first api key (prefix and hash only)', () => {
    spec
      .given([])
      .when({ type: 'create', tenantId: 'ten_1', name: 'Acme', email: 'ops@acme.example', plan: 'pro', key: KEY })
      .then(created());
    expect(JSON.stringify(created())).not.toMatch(/secret|api_key"/);
  });

  it('create on an existing tenant → conflict', () => {
    spec
      .given(created())
      .when({ type: 'create', tenantId: 'ten_1', name: 'Again', email: null, plan: 'pro', key: KEY2 })
      .thenThrows('conflict');
  });

  it.each<TenantCommand>([
    { type: 'issue_key', key: KEY2 },
    { type: 'revoke_key', keyPrefix: KEY.prefix },
    { type: 'suspend' },
    { type: 'reactivate' },
  ])('$type on a tenant that does not exist → not_found', (command) => {
    spec.given([]).when(command).thenThrows({ code: 'not_found', param: 'tenant_id' });
  });

  it('state after creation: active, the plan, one active key', () => {
    const state = fold(tenantDecider, created('starter'));
    expect(state).toMatchObject({ status: 'active', tenantId: 'ten_1', plan: 'starter' });
    expect(state.status !== 'none' && [...state.keys]).toEqual([[KEY.prefix, 'active']]);
  });

  it('issue_key → tenant.api_key_issued', () => {
    spec
      .given(created())
      .when({ type: 'issue_key', key: KEY2 })
      .then([{ type: 'tenant.api_key_issued', data: { key_prefix: KEY2.prefix, key_hash: KEY2.hash } }]);
  });

  it('revoke_key of an active key → revoked; again → nothing; unknown prefix → not_found', () => {
    const revoked: TenantEvent = { type: 'tenant.api_key_revoked', data: { key_prefix: KEY.prefix } };
    spec.given(created()).when({ type: 'revoke_key', keyPrefix: KEY.prefix }).then([revoked]);
    spec
      .given([...created(), revoked])
      .when({ type: 'revoke_key', keyPrefix: KEY.prefix })
      .thenNothingHappened();
    spec
      .given([...created(), revoked])
      .when({ type: 'revoke_key', keyPrefix: 'vap_live_zzzz' })
      .thenThrows({ code: 'not_found', param: 'key_prefix' });
  });

  it('suspend → suspended; suspending again → nothing; reactivate → reactivated; again → nothing', () => {
    spec.given(created()).when({ type: 'suspend' }).then([suspended]);
    spec.given(created()).when({ type: 'reactivate' }).thenNothingHappened();
    expect(fold(tenantDecider, [...created(), suspended]).status).toBe('suspended');
    spec
      .given([...created(), suspended])
      .when({ type: 'suspend' })
      .thenNothingHappened();
    spec
      .given([...created(), suspended])
      .when({ type: 'reactivate' })
      .then([reactivated]);
    expect(fold(tenantDecider, [...created(), suspended, reactivated]).status).toBe('active');
  });

  it('a suspended tenant keeps its keys and can still be managed', () => {
    spec
      .given([...created(), suspended])
      .when({ type: 'issue_key', key: KEY2 })
      .then([{ type: 'tenant.api_key_issued', data: { key_prefix: KEY2.prefix, key_hash: KEY2.hash } }]);
    spec
      .given([...created(), suspended])
      .when({ type: 'revoke_key', keyPrefix: KEY.prefix })
      .then([{ type: 'tenant.api_key_revoked', data: { key_prefix: KEY.prefix } }]);
  });
});
