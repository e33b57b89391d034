/**
 * The command executor keeps folded states between commands and hands the same object to every
 * command on the stream (src/runtime/stream-state-cache.ts): that is safe only if no decider changes
 * a state it is given, in `decide` or in `evolve`. Each decider is driven through a history here, and
 * every state it was given is compared with a deep copy taken before (Maps and Sets included, which
 * Object.freeze would not protect).
 */
import type { Decider, DomainEvent } from '../../src/kernel/decider';
import { dncDecider } from '../../src/dnc/domain/dnc.decider';
import { sessionDecider } from '../../src/sessions/domain/session.decider';
import { tenantDecider } from '../../src/tenants/domain/tenant.decider';
import { endpointDecider } from '../../src/webhooks/domain/endpoint.decider';
import { at, placeCommand, signal } from '../support/session-decider-fixtures';

/** A deep copy in this realm (Jest's structuredClone builds Maps and Sets that toEqual cannot read). */
function copy<T>(value: T): T {
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, copy(v)])) as T;
  if (value instanceof Set) return new Set([...value].map((v) => copy(v))) as T;
  if (Array.isArray(value)) return value.map((v) => copy(v)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)])) as T;
  }
  return value;
}

function drive<Command, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
  commands: readonly Command[],
): State {
  let state = decider.initialState();
  let decided = 0;
  for (const command of commands) {
    const given = copy(state);
    let events: readonly Event[] = [];
    try {
      events = decider.decide(command, state);
    } catch {
      // A refusal is fine; what matters is that the state is as it was.
    }
    expect(state).toEqual(given);
    for (const event of events) {
      const before = copy(state);
      const eventBefore = copy(event);
      const next = decider.evolve(state, event);
      expect(state).toEqual(before);
      expect(event).toEqual(eventBefore);
      state = next;
      decided++;
    }
  }
  expect(decided).toBeGreaterThan(0);
  return state;
}

describe('deciders never change the state they are given', () => {
  it('tenant', () => {
    const key = (prefix: string) => ({ prefix, hash: 'ab'.repeat(32) });
    drive(tenantDecider, [
      { type: 'create', tenantId: 'ten_1', name: 'A', email: null, plan: 'pro', key: key('vap_aaaaaaaaaaaa') },
      { type: 'issue_key', key: key('vap_bbbbbbbbbbbb') },
      { type: 'revoke_key', keyPrefix: 'vap_aaaaaaaaaaaa' },
      { type: 'revoke_key', keyPrefix: 'vap_aaaaaaaaaaaa' },
      { type: 'grant_credit', amountCents: 100 },
      { type: 'suspend' },
      { type: 'reactivate' },
      { type: 'create', tenantId: 'ten_1', name: 'A', email: null, plan: 'pro', key: key('vap_cccccccccccc') },
    ]);
  });

  it('dnc', () => {
    drive(dncDecider, [
      { type: 'add', phoneNumber: '+14155550100', source: 'api', sessionId: null },
      { type: 'add', phoneNumber: '+14155550101', source: 'opt_out', sessionId: 'ses_1' },
      { type: 'add', phoneNumber: '+14155550100', source: 'api', sessionId: null },
      { type: 'remove', phoneNumber: '+14155550100' },
      { type: 'remove', phoneNumber: '+14155550199' },
    ]);
  });

  it('webhook endpoint', () => {
    const tenantId = 'ten_1';
    drive(endpointDecider, [
      {
        tenantId,
        type: 'create',
        endpointId: 'we_1',
        url: 'https://a.example/hook',
        events: ['session.ended'],
        description: null,
        secretSealed: 'v1:x',
      },
      { tenantId, type: 'update', events: ['session.ended', 'session.failed'] },
      { tenantId, type: 'rotate_secret', secretSealed: 'v1:y' },
      { tenantId, type: 'send_test', at: '2026-01-01T00:00:00.000Z' },
      { tenantId, type: 'suspend', at: '2026-01-01T00:00:00.000Z', failureStreak: 10, lastStatus: 500 },
      { tenantId, type: 'enable' },
      { tenantId: 'ten_other', type: 'delete' },
      { tenantId, type: 'delete' },
    ]);
  });

  it('session: a call with turns, a function, an opt-out, a hang-up and its recording', () => {
    const state = drive(sessionDecider, [
      placeCommand(),
      signal(1, { kind: 'answered' }, 1),
      signal(2, { kind: 'turn', role: 'agent', content: 'Hello.', t: 0.5 }, 2),
      signal(3, { kind: 'turn', role: 'user', content: 'Stop calling me.', t: 1.5 }, 3),
      signal(4, { kind: 'function_invoked', name: 'lookup', status: 'ok', duration_ms: 12 }, 4),
      signal(5, { kind: 'opt_out' }, 5),
      signal(5, { kind: 'answered' }, 5),
      signal(6, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 6 }, 6),
      signal(7, { kind: 'recording_ready', recording_id: 'rec_1', duration_seconds: 6, channels: 'dual' }, 7),
      { ...signal(8, { kind: 'answered' }, 8), type: 'watchdog' },
      { type: 'purge_recording', at: '2026-03-10T00:00:00.000Z' },
    ]);
    expect(state.status).toBe('completed');
  });

  it('session: a campaign call, an agent disposition refused, then one set twice', () => {
    const disposition = {
      type: 'set_disposition',
      note: null,
      evaluator: 'simulator',
      model: null,
      at: at(9),
    } as const;
    const state = drive(sessionDecider, [
      placeCommand({
        campaignId: 'cmp_1',
        contactId: 'con_1',
        contact: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
        agentConfig: { prompt: 'Hi', dispositions: [{ code: 'booked', description: 'A visit was booked' }] },
      }),
      signal(1, { kind: 'answered' }, 1),
      { ...disposition, code: 'booked' },
      signal(2, { kind: 'turn', role: 'user', content: 'Book me in.', t: 0.5 }, 2),
      signal(3, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 3 }, 3),
      { ...disposition, code: 'other' },
      { ...disposition, code: 'booked' },
      { ...disposition, code: 'booked' },
    ]);
    expect(state).toMatchObject({ status: 'completed', dispositionSet: true });
  });
});
