/**
 * The command executor keeps folded states between commands and hands the same object to every
 * command on the stream (src/runtime/commands/stream-state-cache.ts): that is safe only if no decider changes
 * a state it is given, in `decide` or in `evolve`. Each decider is driven through a history here, and
 * every state it was given is compared with a deep copy taken before (Maps and Sets included, which
 * Object.freeze would not protect).
 *
 * Which deciders: every decider exported from a context's domain/ (found on the disk, so a new
 * context's too) is either driven through a history here or specified through DeciderSpecification
 * (test/support/decider-specification.ts), which makes the same check at every given/when/then.
 */
import type { Decider, DomainEvent } from '../../src/kernel/decider';
import { campaignDecider } from '../../src/campaigns/domain/campaign.decider';
import { sessionIdOf } from '../../src/campaigns/domain/pacing';
import { dncDecider } from '../../src/dnc/domain/dnc.decider';
import { sessionDecider } from '../../src/sessions/domain/session.decider';
import { tenantDecider } from '../../src/tenants/domain/tenant.decider';
import { endpointDecider } from '../../src/webhooks/domain/endpoint.decider';
import { answerRateDecider } from '../../src/numbers/domain/answer-rate';
import { phoneNumberDecider } from '../../src/numbers/domain/phone-number.decider';
import { voiceCloneDecider } from '../../src/voices/domain/voice-clone.decider';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { at, placeCommand, signal } from '../support/session-decider-fixtures';
import { deepCopy } from '../support/decider-specification';

const copy = deepCopy;
/** The deciders driven through a history below. */
const driven = new Set<unknown>();

function drive<Command, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
  commands: readonly Command[],
): State {
  driven.add(decider);
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
      { type: 'suspend' },
      { type: 'reactivate' },
      { type: 'create', tenantId: 'ten_1', name: 'A', email: null, plan: 'pro', key: key('vap_cccccccccccc') },
    ]);
  });

  it('campaign: created, started, paced, a pause, outcomes and completion', () => {
    const contact = (n: number) => ({
      contact_id: `con_${n}`,
      phone_number: `+1212555010${n}`,
      e164: `+1212555010${n}`,
      email: null,
      first_name: null,
      last_name: null,
      timezone: null,
      zones: ['America/New_York'],
    });
    const at = '2026-03-02T19:00:00.000Z';
    const facts = {
      tenantSuspended: false,
      checked: new Set(['+12125550101', '+12125550102', '+12125550103']),
      dnc: new Set(['+12125550103']),
      otherCalls: new Map<string, number[]>(),
    };
    const outcome = (n: number) =>
      ({
        type: 'record_outcome',
        contactId: `con_${n}`,
        sessionId: sessionIdOf(`con_${n}`),
        outcome: 'completed',
        durationSeconds: 45,
        costCents: 0,
        at,
      }) as const;
    const state = drive(campaignDecider, [
      {
        type: 'create',
        definition: {
          campaign_id: 'cmp_1',
          name: 'A',
          from_number: '+14155550000',
          test_mode: true,
          agent_config: null,
          settings: {
            max_concurrency: 1,
            quiet_hours: { start: '21:00', end: '08:00' },
            max_calls_per_number_per_day: 3,
            ends_at: null,
          },
        },
        contacts: [contact(1), contact(2)],
        at,
        start: false,
      },
      { type: 'add_contacts', contacts: [contact(3)] },
      { type: 'start', at },
      { type: 'pace', at, facts },
      { type: 'pause', at },
      { type: 'resume', at },
      outcome(1),
      outcome(1),
      { type: 'pace', at, facts },
      outcome(2),
      // The last one is on the do-not-call list: skipped, and the campaign completes.
      { type: 'pace', at, facts },
    ]);
    expect(state.status).toBe('completed');
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

  it('voice clone: uploaded, trained sample by sample, deleted', () => {
    const measurement = {
      duration_ms: 31_000,
      sample_rate: 16_000,
      channels: 1,
      rms_dbfs: -14,
      peak_dbfs: -10,
      spectrum: { centroid_hz: 300, bands_db: [-1, -2] },
    };
    const file = (n: number) => ({
      filename: `s${n}.wav`,
      content_type: null,
      format: 'wav' as const,
      bytes: 10,
      sha256: 'ab',
      path: `voi_1/0${n}.wav`,
    });
    const at = '2026-03-01T00:00:00.000Z';
    const state = drive(voiceCloneDecider, [
      { type: 'upload', voiceId: 'voi_1', name: 'A', samples: [file(1), file(2)] },
      { type: 'start_training' },
      { type: 'record_measurement', index: 0, measurement },
      { type: 'record_measurement', index: 0, measurement },
      { type: 'record_measurement', index: 1, measurement },
      { type: 'succeed', model: { provider: 'builtin', reference: 'x', summary: {} }, at },
      { type: 'fail', error_code: 'sample_too_short', error_message: 'x' },
      { type: 'delete', at },
      { type: 'start_training' },
    ]);
    expect(state.status).toBe('deleted');
  });

  it('phone number and its answer rate', () => {
    drive(phoneNumberDecider, [
      {
        type: 'register',
        phoneNumberId: 'pn_1',
        tenantId: 'ten_1',
        phoneNumber: '+14155550142',
        agentConfig: { prompt: 'Hi' },
        testMode: false,
      },
      { type: 'update', phoneNumberId: 'pn_1', tenantId: 'ten_1', testMode: true },
      { type: 'release', phoneNumberId: 'pn_1', tenantId: 'ten_1' },
    ]);
    const evaluation = { phoneNumber: '+14155550142', minCalls: 2 };
    const call = (n: number, answered: boolean) =>
      ({
        type: 'record_call',
        ...evaluation,
        at: `2026-03-01T00:00:0${n}.000Z`,
        call: { session_id: `ses_${n}`, ended_at: `2026-03-01T00:00:0${n}.000Z`, answered },
      }) as const;
    const state = drive(answerRateDecider, [
      call(1, false),
      call(2, false),
      call(2, false),
      call(3, true),
      call(4, true),
      call(5, true),
      call(6, true),
      call(7, true),
      call(8, true),
      { type: 'evaluate', ...evaluation, at: '2026-03-03T00:00:00.000Z' },
    ]);
    expect(state.armed).toBe(true);
  });
});

const ROOT = resolve(__dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file));
}

/** Every exported decider of every context's domain/ (any folder under src/ may be a context). */
function exportedDeciders(): { name: string; file: string; decider: unknown }[] {
  const found: { name: string; file: string; decider: unknown }[] = [];
  for (const file of filesUnder(join(ROOT, 'src'))) {
    if (!/\/domain\/.*\.ts$/.test(file) || /\.(spec|int-spec|e2e-spec)\.ts$/.test(file)) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    for (const [name, value] of Object.entries(require(file) as Record<string, unknown>)) {
      const shape = value as Partial<Record<'initialState' | 'evolve' | 'decide', unknown>> | null;
      if (typeof shape !== 'object' || shape === null) continue;
      if ([shape.initialState, shape.evolve, shape.decide].every((f) => typeof f === 'function'))
        found.push({ name, file: relative(ROOT, file), decider: value });
    }
  }
  return found;
}

/** Names passed to DeciderSpecification.for(...) in the spec files of src/ and test/. */
function specifiedDeciders(): Set<string> {
  const names = new Set<string>();
  for (const file of [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'test'))]) {
    if (!file.endsWith('.spec.ts')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/DeciderSpecification\.for(?:<[^>]*>)?\(\s*(\w+)/g))
      names.add(match[1] ?? '');
  }
  return names;
}

describe('every decider is checked', () => {
  // After the histories above (Jest runs describe blocks' tests in order).
  it('each one exported from a domain/ folder is driven here or specified through DeciderSpecification', () => {
    const deciders = exportedDeciders();
    expect(deciders.map((d) => d.name)).toEqual(expect.arrayContaining(['sessionDecider', 'ledgerDecider']));
    const specified = specifiedDeciders();
    const unchecked = deciders.filter((d) => !driven.has(d.decider) && !specified.has(d.name));
    expect(unchecked.map((d) => `${d.name} (${d.file})`)).toEqual([]);
  });
});
