/** Given/when/then on the tenant decider (pure). */
import { fold } from '../../kernel/decider';
import { DomainError } from '../../kernel/result';
import { TenantCommand, tenantDecider, TenantEvent, tenantStream } from './tenant.decider';

const KEY = { prefix: 'vap_live_abcd', hash: 'h'.repeat(64) };
const KEY2 = { prefix: 'vap_live_efgh', hash: 'g'.repeat(64) };

function given(...events: TenantEvent[]) {
  const state = fold(tenantDecider, events);
  return { state, when: (command: TenantCommand) => tenantDecider.decide(command, state) };
}

const created = (plan: 'starter' | 'pro' = 'pro'): TenantEvent[] => [
  { type: 'tenant.created', data: { tenant_id: 'ten_1', name: 'Acme', email: 'ops@acme.example', plan } },
  { type: 'tenant.api_key_issued', data: { key_prefix: KEY.prefix, key_hash: KEY.hash } },
];

describe('tenant decider', () => {
  it('names the stream', () => {
    expect(tenantStream('ten_1')).toBe('tenant-ten_1');
  });

  it('create → tenant.created and the first api key (prefix and hash only)', () => {
    const events = given().when({
      type: 'create',
      tenantId: 'ten_1',
      name: 'Acme',
      email: 'ops@acme.example',
      plan: 'pro',
      key: KEY,
    });
    expect(events).toEqual(created());
    expect(JSON.stringify(events)).not.toMatch(/secret|api_key"/);
  });

  it('create on an existing tenant → conflict', () => {
    expect(() =>
      given(...created()).when({
        type: 'create',
        tenantId: 'ten_1',
        name: 'Again',
        email: null,
        plan: 'pro',
        key: KEY2,
      }),
    ).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it.each<TenantCommand>([
    { type: 'issue_key', key: KEY2 },
    { type: 'revoke_key', keyPrefix: KEY.prefix },
    { type: 'grant_credit', amountCents: 100 },
    { type: 'suspend' },
    { type: 'reactivate' },
  ])('$type on a tenant that does not exist → not_found', (command) => {
    expect(() => given().when(command)).toThrow(DomainError);
    expect(() => given().when(command)).toThrow(expect.objectContaining({ code: 'not_found', param: 'tenant_id' }));
  });

  it('state after creation: active, the plan, one active key', () => {
    const { state } = given(...created('starter'));
    expect(state).toMatchObject({ status: 'active', tenantId: 'ten_1', plan: 'starter' });
    expect(state.status !== 'none' && [...state.keys]).toEqual([[KEY.prefix, 'active']]);
  });

  it('issue_key → tenant.api_key_issued', () => {
    expect(given(...created()).when({ type: 'issue_key', key: KEY2 })).toEqual([
      { type: 'tenant.api_key_issued', data: { key_prefix: KEY2.prefix, key_hash: KEY2.hash } },
    ]);
  });

  it('revoke_key of an active key → revoked; again → nothing; unknown prefix → not_found', () => {
    expect(given(...created()).when({ type: 'revoke_key', keyPrefix: KEY.prefix })).toEqual([
      { type: 'tenant.api_key_revoked', data: { key_prefix: KEY.prefix } },
    ]);
    const revoked = given(...created(), { type: 'tenant.api_key_revoked', data: { key_prefix: KEY.prefix } });
    expect(revoked.when({ type: 'revoke_key', keyPrefix: KEY.prefix })).toEqual([]);
    expect(() => revoked.when({ type: 'revoke_key', keyPrefix: 'vap_live_zzzz' })).toThrow(
      expect.objectContaining({ code: 'not_found', param: 'key_prefix' }),
    );
  });

  it('grant_credit: any non-zero integer (adjustments may be negative); 0 or a fraction is invalid', () => {
    const g = given(...created());
    expect(g.when({ type: 'grant_credit', amountCents: 500 })).toEqual([
      { type: 'tenant.credit_granted', data: { amount_cents: 500 } },
    ]);
    expect(g.when({ type: 'grant_credit', amountCents: -200 })).toEqual([
      { type: 'tenant.credit_granted', data: { amount_cents: -200 } },
    ]);
    for (const bad of [0, 1.5, Number.NaN]) {
      expect(() => g.when({ type: 'grant_credit', amountCents: bad })).toThrow(
        expect.objectContaining({ code: 'invalid_request', param: 'amount_cents' }),
      );
    }
  });

  it('suspend → suspended; suspending again → nothing; reactivate → reactivated; again → nothing', () => {
    const active = given(...created());
    expect(active.when({ type: 'suspend' })).toEqual([{ type: 'tenant.suspended', data: {} }]);
    expect(active.when({ type: 'reactivate' })).toEqual([]);
    const suspended = given(...created(), { type: 'tenant.suspended', data: {} });
    expect(suspended.state.status).toBe('suspended');
    expect(suspended.when({ type: 'suspend' })).toEqual([]);
    expect(suspended.when({ type: 'reactivate' })).toEqual([{ type: 'tenant.reactivated', data: {} }]);
    const back = given(...created(), { type: 'tenant.suspended', data: {} }, { type: 'tenant.reactivated', data: {} });
    expect(back.state.status).toBe('active');
  });

  it('a suspended tenant keeps its keys and can still be managed', () => {
    const suspended = given(...created(), { type: 'tenant.suspended', data: {} });
    expect(suspended.when({ type: 'issue_key', key: KEY2 })).toHaveLength(1);
    expect(suspended.when({ type: 'revoke_key', keyPrefix: KEY.prefix })).toHaveLength(1);
  });
});
