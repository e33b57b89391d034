import { DeciderSpecification } from '../../../test/support/decider-specification';
import { fold } from '../../kernel/decider';
import {
  DEFAULT_AGENT,
  ownerOf,
  type PhoneNumberCommand,
  type PhoneNumberEvent,
  phoneNumberDecider,
  phoneNumberEdge,
  registrationOf,
  sameDigest,
  statusOf,
} from './phone-number.decider';

const spec = DeciderSpecification.for(phoneNumberDecider);
const NUMBER = '+14155550142';
const AGENT = { prompt: 'Answer calls for Northwind Dental.' };
const HASH = 'a'.repeat(64);
const WRONG = 'b'.repeat(64);
const T0 = '2026-03-01T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

const registration = (tenantId: string, id: string, testMode = false) => ({
  phone_number_id: id,
  tenant_id: tenantId,
  phone_number: NUMBER,
  agent_config: AGENT,
  test_mode: testMode,
});
const registered = (tenantId: string, id: string, testMode = false): PhoneNumberEvent => ({
  type: 'phone_number.registered',
  data: { ...registration(tenantId, id, testMode), ownership_shown: false },
});
/** A registration stored before verification existed (no ownership_shown), read through the edge: its number's owner. */
const legacy = phoneNumberEdge.decode({ type: 'phone_number.registered', data: registration('ten_a', 'pn_1') });
const requested = (id: string, sessionId: string, when = T0): PhoneNumberEvent => ({
  type: 'phone_number.verification_requested',
  data: {
    phone_number_id: id,
    session_id: sessionId,
    code_hash: HASH,
    requested_at: when,
    expires_at: new Date(Date.parse(when) + 600_000).toISOString(),
  },
});
const verified = (id: string): PhoneNumberEvent => ({ type: 'phone_number.verified', data: { phone_number_id: id } });
const failed = (id: string, triesLeft: number): PhoneNumberEvent => ({
  type: 'phone_number.verification_failed',
  data: { phone_number_id: id, tries_left: triesLeft },
});
const register = (tenantId: string, phoneNumberId: string, testMode = false): PhoneNumberCommand => ({
  type: 'register',
  phoneNumberId,
  tenantId,
  phoneNumber: NUMBER,
  agentConfig: AGENT,
  testMode,
});
const request = (tenantId: string, id: string, sessionId: string, when = T0): PhoneNumberCommand => ({
  type: 'request_verification',
  phoneNumberId: id,
  tenantId,
  sessionId,
  codeHash: HASH,
  at: when,
});
const confirm = (tenantId: string, id: string, codeHash: string, when = at(60_000)): PhoneNumberCommand => ({
  type: 'confirm_verification',
  phoneNumberId: id,
  tenantId,
  codeHash,
  at: when,
});

describe('phone number decider: registrations', () => {
  it('a tenant registers a number pending verification (a test-mode one is active at once); nobody owns it yet', () => {
    spec.given([]).when(register('ten_a', 'pn_1')).then(registered('ten_a', 'pn_1'));
    const state = fold(phoneNumberDecider, [registered('ten_a', 'pn_1'), registered('ten_b', 'pn_2', true)]);
    expect(ownerOf(state)).toBeNull();
    expect(statusOf(false, false)).toBe('pending_verification');
    expect(statusOf(false, true)).toBe('active');
    expect(statusOf(true, false)).toBe('active');
  });

  it('another tenant registers the same number just the same, whether it is held pending or owned: nothing tells', () => {
    for (const given of [
      [registered('ten_a', 'pn_1')],
      [registered('ten_a', 'pn_1'), requested('pn_1', 'ses_1'), verified('pn_1')],
      [legacy],
    ])
      spec.given(given).when(register('ten_b', 'pn_2')).then(registered('ten_b', 'pn_2'));
  });

  it('a tenant holds one registration of a number: under a new id it is a conflict naming its own', () => {
    spec
      .given(registered('ten_a', 'pn_1'))
      .when(register('ten_a', 'pn_9'))
      .thenThrows({ code: 'conflict', message: `${NUMBER} is already registered as pn_1.` });
    spec.given(registered('ten_a', 'pn_1')).when(register('ten_a', 'pn_1')).thenNothingHappened();
  });

  it('a registration stored before verification existed owns its number', () => {
    expect(legacy.data).toMatchObject({ ownership_shown: true });
    expect(ownerOf(fold(phoneNumberDecider, [legacy]))?.phoneNumberId).toBe('pn_1');
  });

  it('the tenant changes its agent and test mode; another tenant or a released registration is not found', () => {
    const agent = { prompt: 'New agent', voice_id: 'voice_ava' };
    spec
      .given(registered('ten_a', 'pn_1'))
      .when({ type: 'update', phoneNumberId: 'pn_1', tenantId: 'ten_a', agentConfig: agent })
      .then({ type: 'phone_number.updated', data: { phone_number_id: 'pn_1', agent_config: agent, test_mode: false } });
    spec
      .given(registered('ten_a', 'pn_1'))
      .when({ type: 'update', phoneNumberId: 'pn_1', tenantId: 'ten_a', testMode: false })
      .thenNothingHappened();
    spec
      .given(registered('ten_a', 'pn_1'))
      .when({ type: 'update', phoneNumberId: 'pn_1', tenantId: 'ten_b', testMode: true })
      .thenThrows({ code: 'not_found', param: 'phone_number_id' });
    const released: PhoneNumberEvent = { type: 'phone_number.released', data: { phone_number_id: 'pn_1' } };
    spec
      .given([registered('ten_a', 'pn_1'), released])
      .when({ type: 'release', phoneNumberId: 'pn_1', tenantId: 'ten_a' })
      .thenThrows('not_found');
  });

  it("releasing the owner's registration frees the number; the others stay", () => {
    const released: PhoneNumberEvent = { type: 'phone_number.released', data: { phone_number_id: 'pn_1' } };
    const state = fold(phoneNumberDecider, [legacy, registered('ten_b', 'pn_2'), released]);
    expect(ownerOf(state)).toBeNull();
    expect(registrationOf(state, 'ten_b')?.phoneNumberId).toBe('pn_2');
  });
});

describe('phone number decider: verification', () => {
  const pending = [registered('ten_a', 'pn_1'), requested('pn_1', 'ses_1')];

  it('a verification call records the code’s hash, expiring in 10 minutes; a retry of the same call records nothing', () => {
    spec
      .given(registered('ten_a', 'pn_1'))
      .when(request('ten_a', 'pn_1', 'ses_1'))
      .then(requested('pn_1', 'ses_1'));
    spec
      .given(pending)
      .when(request('ten_a', 'pn_1', 'ses_1'))
      .thenNothingHappened();
  });

  it('at most one call a minute and 5 a day per tenant and number (rate_limited)', () => {
    spec
      .given(pending)
      .when(request('ten_a', 'pn_1', 'ses_2', at(59_000)))
      .thenThrows('rate_limited');
    spec
      .given(pending)
      .when(request('ten_a', 'pn_1', 'ses_2', at(60_000)))
      .then(requested('pn_1', 'ses_2', at(60_000)));
    const five = [1, 2, 3, 4, 5].map((n) => requested('pn_1', `ses_${n}`, at(n * 3_600_000)));
    spec
      .given([registered('ten_a', 'pn_1'), ...five])
      .when(request('ten_a', 'pn_1', 'ses_6', at(20 * 3_600_000)))
      .thenThrows({ code: 'rate_limited', message: /5 verification calls per 24 hours/ });
    // The first of the five left the 24 hours: one more may go.
    spec
      .given([registered('ten_a', 'pn_1'), ...five])
      .when(request('ten_a', 'pn_1', 'ses_6', at(25 * 3_600_000)))
      .then(requested('pn_1', 'ses_6', at(25 * 3_600_000)));
  });

  it('releasing and registering the number again keeps its count: no new minute, no new 5 a day', () => {
    const releasedPn = (id: string): PhoneNumberEvent => ({
      type: 'phone_number.released',
      data: { phone_number_id: id },
    });
    spec
      .given([...pending, releasedPn('pn_1'), registered('ten_a', 'pn_2')])
      .when(request('ten_a', 'pn_2', 'ses_2', at(30_000)))
      .thenThrows({ code: 'rate_limited', message: /per minute/ });
    // Five calls over five registrations of the same number, each released after its call.
    const cycles = [1, 2, 3, 4, 5].flatMap((n) => [
      registered('ten_a', `pn_${n}`),
      requested(`pn_${n}`, `ses_${n}`, at(n * 3_600_000)),
      releasedPn(`pn_${n}`),
    ]);
    spec
      .given([...cycles, registered('ten_a', 'pn_6')])
      .when(request('ten_a', 'pn_6', 'ses_6', at(20 * 3_600_000)))
      .thenThrows({ code: 'rate_limited', message: /5 verification calls per 24 hours/ });
    spec
      .given([...cycles, registered('ten_a', 'pn_6')])
      .when(request('ten_a', 'pn_6', 'ses_6', at(25 * 3_600_000)))
      .then(requested('pn_6', 'ses_6', at(25 * 3_600_000)));
  });

  it('a number gets at most 10 verification calls in 24 hours whoever asks; each tenant counts its own 5', () => {
    const calls = (tenantId: string, id: string, from: number) => [
      registered(tenantId, id),
      ...[0, 1, 2, 3, 4].map((n) => requested(id, `ses_${id}_${n}`, at((from + n) * 60_000))),
    ];
    const twoTenants = [...calls('ten_a', 'pn_a', 0), ...calls('ten_b', 'pn_b', 10)];
    // A third tenant's first call: the number has had its 10.
    spec
      .given([...twoTenants, registered('ten_c', 'pn_c')])
      .when(request('ten_c', 'pn_c', 'ses_c', at(3_600_000)))
      .thenThrows({ code: 'rate_limited', message: /10 verification calls in 24 hours/ });
    // Fewer calls by the others: the third tenant's goes.
    spec
      .given([...calls('ten_a', 'pn_a', 0), registered('ten_c', 'pn_c')])
      .when(request('ten_c', 'pn_c', 'ses_c', at(3_600_000)))
      .then(requested('pn_c', 'ses_c', at(3_600_000)));
  });

  it('the right code makes the registration the owner; a wrong one uses a try', () => {
    spec
      .given(pending)
      .when(confirm('ten_a', 'pn_1', HASH))
      .then(verified('pn_1'));
    spec
      .given(pending)
      .when(confirm('ten_a', 'pn_1', WRONG))
      .then(failed('pn_1', 4));
    expect(ownerOf(fold(phoneNumberDecider, [...pending, verified('pn_1')]))?.tenantId).toBe('ten_a');
  });

  it('after 5 wrong tries the code is void: even the right one checks nothing; a new call brings a new code', () => {
    const used = [
      ...pending,
      failed('pn_1', 4),
      failed('pn_1', 3),
      failed('pn_1', 2),
      failed('pn_1', 1),
      failed('pn_1', 0),
    ];
    spec
      .given(used)
      .when(confirm('ten_a', 'pn_1', HASH))
      .thenNothingHappened();
    spec
      .given([...used, requested('pn_1', 'ses_2', at(120_000))])
      .when(confirm('ten_a', 'pn_1', HASH, at(130_000)))
      .then(verified('pn_1'));
  });

  it('an expired code, or none asked for, checks nothing', () => {
    spec
      .given(pending)
      .when(confirm('ten_a', 'pn_1', HASH, at(600_000)))
      .thenNothingHappened();
    spec
      .given(registered('ten_a', 'pn_1'))
      .when(confirm('ten_a', 'pn_1', HASH))
      .thenNothingHappened();
  });

  it('while another tenant owns the number, the right code answers exactly as a wrong one (no leak, no takeover)', () => {
    const owned = [legacy, registered('ten_b', 'pn_2'), requested('pn_2', 'ses_b')];
    spec
      .given(owned)
      .when(request('ten_b', 'pn_2', 'ses_c', at(60_000)))
      .then(requested('pn_2', 'ses_c', at(60_000)));
    spec
      .given(owned)
      .when(confirm('ten_b', 'pn_2', HASH))
      .then(failed('pn_2', 4));
    spec
      .given(owned)
      .when(confirm('ten_b', 'pn_2', WRONG))
      .then(failed('pn_2', 4));
  });

  it('a pending registration blocks nobody: the real holder verifies while a squatter waits', () => {
    spec
      .given([
        registered('ten_s', 'pn_s'),
        requested('pn_s', 'ses_s'),
        registered('ten_a', 'pn_1'),
        requested('pn_1', 'ses_1'),
      ])
      .when(confirm('ten_a', 'pn_1', HASH))
      .then(verified('pn_1'));
  });

  it("the owner needs no verification (conflict); another tenant's registration is not found", () => {
    spec
      .given(legacy)
      .when(request('ten_a', 'pn_1', 'ses_1'))
      .thenThrows('conflict');
    spec
      .given(pending)
      .when(request('ten_b', 'pn_1', 'ses_1'))
      .thenThrows({ code: 'not_found', param: 'phone_number_id' });
    spec
      .given(pending)
      .when(confirm('ten_b', 'pn_1', HASH))
      .thenThrows({ code: 'not_found', param: 'phone_number_id' });
    spec
      .given(legacy)
      .when(confirm('ten_a', 'pn_1', HASH))
      .thenNothingHappened();
  });

  it('digests are compared whole', () => {
    expect(sameDigest(HASH, HASH)).toBe(true);
    expect(sameDigest(HASH, `${HASH.slice(0, 63)}b`)).toBe(false);
    expect(sameDigest(HASH, HASH.slice(1))).toBe(false);
  });
});

describe('phone number decider: the operator assigns', () => {
  const assign = (tenantId: string, agentConfig?: typeof AGENT): PhoneNumberCommand => ({
    type: 'assign',
    phoneNumberId: 'pn_new',
    tenantId,
    phoneNumber: NUMBER,
    ...(agentConfig ? { agentConfig } : {}),
  });

  it('a free number: a new registration that owns it, with the default agent when none is given', () => {
    spec
      .given([])
      .when(assign('ten_a'))
      .then({
        type: 'phone_number.assigned',
        data: { ...registration('ten_a', 'pn_new'), agent_config: DEFAULT_AGENT, replaced_phone_number_id: null },
      });
  });

  it("the tenant's pending registration becomes the owner, keeping its agent and test mode", () => {
    spec
      .given(registered('ten_a', 'pn_1', true))
      .when(assign('ten_a'))
      .then({
        type: 'phone_number.assigned',
        data: { ...registration('ten_a', 'pn_1', true), replaced_phone_number_id: null },
      });
  });

  it('moves a number from its owner, who keeps a registration that no longer owns it; a repeat changes nothing', () => {
    const event: PhoneNumberEvent = {
      type: 'phone_number.assigned',
      data: { ...registration('ten_b', 'pn_new'), replaced_phone_number_id: 'pn_1' },
    };
    spec.given(legacy).when(assign('ten_b', AGENT)).then(event);
    const state = fold(phoneNumberDecider, [legacy, event]);
    expect(ownerOf(state)?.tenantId).toBe('ten_b');
    expect(registrationOf(state, 'ten_a')?.phoneNumberId).toBe('pn_1');
    spec.given([legacy, event]).when(assign('ten_b')).thenNothingHappened();
  });
});
