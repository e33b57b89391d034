/**
 * Who holds a phone number, one stream per number in E.164 form (`phone_number-+14155550100`), so
 * that every registration of a number is decided on one state (decision 61, docs/numbers.md):
 *
 * - Any tenant may register any number (one registration per tenant and number, its id `pn_…`):
 *   nobody learns from a registration whether someone else holds the number.
 * - At most one registration is the number's **owner**: the one whose ownership was shown, by a
 *   verification call whose spoken code it confirmed, or by the operator's assignment. Only the owner
 *   takes calls from the media gateway. A verification cannot complete while another registration
 *   owns the number: the right code then answers exactly as a wrong one. The operator may move it.
 * - A registration is `active` when it owns the number or is in test mode (simulated test calls
 *   only); otherwise `pending_verification`.
 */
import type { Decider, DomainEvent } from '../../kernel/decider';
import { defineEdge } from '../../kernel/event-edge';
import { conflict, DomainError, notFound } from '../../kernel/result';
import { streamName } from '../../kernel/stream-name';
import type { AgentConfig } from '../../sessions';

/**
 * The verification rules: a code lives 10 minutes and takes 5 tries. Calls to a number: at most 1 a
 * minute and 5 in 24 hours per tenant, whatever its registrations (a release forgets none), and 10 in
 * 24 hours whoever asks; at most 20 in 24 hours per tenant over all its numbers (decision 68).
 */
export const VERIFICATION = {
  tries: 5,
  codeTtlMs: 10 * 60_000,
  callGapMs: 60_000,
  callsPerDay: 5,
  callsPerNumberPerDay: 10,
  callsPerTenantPerDay: 20,
  dayMs: 24 * 60 * 60_000,
} as const;

/** The agent of a number the operator assigns without one, until the tenant sets its own. */
export const DEFAULT_AGENT: AgentConfig = { prompt: 'Answer the call politely and take a message for the business.' };

export type PhoneNumberStatus = 'active' | 'pending_verification';

interface RegistrationData {
  phone_number_id: string;
  tenant_id: string;
  phone_number: string;
  agent_config: AgentConfig;
  test_mode: boolean;
}

export type PhoneNumberEvent =
  | DomainEvent<
      'phone_number.registered',
      RegistrationData & {
        /** false for every registration since verification exists; true in events stored before (upcast by the edge). */
        ownership_shown: boolean;
      }
    >
  /** The operator's assignment: the registration (new, or the tenant's own) becomes the owner. */
  | DomainEvent<'phone_number.assigned', RegistrationData & { replaced_phone_number_id: string | null }>
  | DomainEvent<'phone_number.updated', { phone_number_id: string; agent_config: AgentConfig; test_mode: boolean }>
  | DomainEvent<'phone_number.released', { phone_number_id: string }>
  /** Only a hash of the code (HMAC-SHA256, keyed, over the registration id and the code) is kept. */
  | DomainEvent<
      'phone_number.verification_requested',
      { phone_number_id: string; session_id: string; code_hash: string; requested_at: string; expires_at: string }
    >
  | DomainEvent<'phone_number.verification_failed', { phone_number_id: string; tries_left: number }>
  | DomainEvent<'phone_number.verified', { phone_number_id: string }>;

export const PHONE_NUMBER_EVENT_TYPES: readonly PhoneNumberEvent['type'][] = [
  'phone_number.registered',
  'phone_number.assigned',
  'phone_number.updated',
  'phone_number.released',
  'phone_number.verification_requested',
  'phone_number.verification_failed',
  'phone_number.verified',
];

export type PhoneNumberCommand =
  | {
      type: 'register';
      phoneNumberId: string;
      tenantId: string;
      phoneNumber: string;
      agentConfig: AgentConfig;
      testMode: boolean;
    }
  | { type: 'assign'; phoneNumberId: string; tenantId: string; phoneNumber: string; agentConfig?: AgentConfig }
  | { type: 'update'; phoneNumberId: string; tenantId: string; agentConfig?: AgentConfig; testMode?: boolean }
  | { type: 'release'; phoneNumberId: string; tenantId: string }
  | {
      type: 'request_verification';
      phoneNumberId: string;
      tenantId: string;
      sessionId: string;
      codeHash: string;
      at: string;
    }
  | { type: 'confirm_verification'; phoneNumberId: string; tenantId: string; codeHash: string; at: string };

export interface PendingVerification {
  readonly sessionId: string;
  readonly codeHash: string;
  readonly expiresAt: string;
  readonly triesLeft: number;
}

export interface Registration {
  readonly phoneNumberId: string;
  readonly tenantId: string;
  readonly phoneNumber: string;
  readonly agentConfig: AgentConfig;
  readonly testMode: boolean;
  readonly verification: PendingVerification | null;
}

export interface PhoneNumberState {
  /** By registration id (a plain object: the state is cached through JSON). */
  readonly registrations: Readonly<Record<string, Registration>>;
  /** The registration that owns the number, if any. */
  readonly owner: string | null;
  /**
   * When verification calls to the number were placed, per tenant (its last `VERIFICATION.callsPerDay`),
   * and for all tenants (the last `VERIFICATION.callsPerNumberPerDay`): kept when a registration is
   * released, so that releasing and registering again starts no new count.
   */
  readonly callsByTenant: Readonly<Record<string, readonly string[]>>;
  readonly calls: readonly string[];
}

export const phoneNumberStream = streamName('phone_number');

/** Its stored events read back (event-edge.ts): each type's required fields. */
export const phoneNumberEdge = defineEdge<PhoneNumberEvent>(
  {
    'phone_number.registered': {
      phone_number_id: true,
      tenant_id: true,
      phone_number: true,
      agent_config: true,
      test_mode: true,
      ownership_shown: true,
    },
    'phone_number.assigned': {
      phone_number_id: true,
      tenant_id: true,
      phone_number: true,
      agent_config: true,
      test_mode: true,
      replaced_phone_number_id: true,
    },
    'phone_number.updated': { phone_number_id: true, agent_config: true, test_mode: true },
    'phone_number.released': { phone_number_id: true },
    'phone_number.verification_requested': {
      phone_number_id: true,
      session_id: true,
      code_hash: true,
      requested_at: true,
      expires_at: true,
    },
    'phone_number.verification_failed': { phone_number_id: true, tries_left: true },
    'phone_number.verified': { phone_number_id: true },
  },
  {
    // Registrations stored before verification existed showed ownership: their registrant owns the number.
    'phone_number.registered': (data) =>
      data.ownership_shown === undefined ? { ...data, ownership_shown: true } : data,
  },
);

export const phoneNumberDecider: Decider<PhoneNumberCommand, PhoneNumberState, PhoneNumberEvent> = {
  edge: phoneNumberEdge,
  initialState: () => ({ registrations: {}, owner: null, callsByTenant: {}, calls: [] }),
  evolve,
  decide,
};

/** The tenant's registration of the number (`phoneNumberId`, when given, must be its id), or null. */
export function registrationOf(state: PhoneNumberState, tenantId: string, phoneNumberId?: string): Registration | null {
  const found = Object.values(state.registrations).find((r) => r.tenantId === tenantId);
  if (!found) return null;
  return phoneNumberId === undefined || found.phoneNumberId === phoneNumberId ? found : null;
}

/** The registration that takes the number's calls from the media gateway, or null. */
export function ownerOf(state: PhoneNumberState): Registration | null {
  return state.owner === null ? null : (state.registrations[state.owner] ?? null);
}

export function statusOf(owns: boolean, testMode: boolean): PhoneNumberStatus {
  return owns || testMode ? 'active' : 'pending_verification';
}

/** Two hex digests compared in constant time (both are SHA-256 digests of the same length). */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function evolve(state: PhoneNumberState, event: PhoneNumberEvent): PhoneNumberState {
  const id = event.data.phone_number_id;
  const put = (changes: Partial<Registration>, owner = state.owner, base = state): PhoneNumberState => {
    const current = base.registrations[id];
    return current
      ? { ...base, registrations: { ...base.registrations, [id]: { ...current, ...changes } }, owner }
      : base;
  };
  switch (event.type) {
    case 'phone_number.registered':
    case 'phone_number.assigned': {
      const d = event.data;
      const registration: Registration = {
        phoneNumberId: id,
        tenantId: d.tenant_id,
        phoneNumber: d.phone_number,
        agentConfig: d.agent_config,
        testMode: d.test_mode,
        verification: null,
      };
      const owns = event.type === 'phone_number.assigned' || event.data.ownership_shown !== false;
      return {
        ...state,
        registrations: { ...state.registrations, [id]: registration },
        owner: owns ? id : state.owner,
      };
    }
    case 'phone_number.updated':
      return put({ agentConfig: event.data.agent_config, testMode: event.data.test_mode });
    case 'phone_number.released': {
      const { [id]: _released, ...rest } = state.registrations;
      return { ...state, registrations: rest, owner: state.owner === id ? null : state.owner };
    }
    case 'phone_number.verification_requested': {
      const d = event.data;
      const tenantId = state.registrations[id]?.tenantId;
      if (tenantId === undefined) return state;
      const counted: PhoneNumberState = {
        ...state,
        callsByTenant: {
          ...state.callsByTenant,
          [tenantId]: [...(state.callsByTenant[tenantId] ?? []), d.requested_at].slice(-VERIFICATION.callsPerDay),
        },
        calls: [...state.calls, d.requested_at].slice(-VERIFICATION.callsPerNumberPerDay),
      };
      const verification = {
        sessionId: d.session_id,
        codeHash: d.code_hash,
        expiresAt: d.expires_at,
        triesLeft: VERIFICATION.tries,
      };
      return put({ verification }, state.owner, counted);
    }
    case 'phone_number.verification_failed': {
      const pending = state.registrations[id]?.verification;
      return put({ verification: pending ? { ...pending, triesLeft: event.data.tries_left } : null });
    }
    case 'phone_number.verified':
      return put({ verification: null }, id);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function decide(command: PhoneNumberCommand, state: PhoneNumberState): PhoneNumberEvent[] {
  switch (command.type) {
    case 'register': {
      const mine = registrationOf(state, command.tenantId);
      if (mine) {
        if (mine.phoneNumberId === command.phoneNumberId) return []; // the same registration, retried
        throw conflict(`${command.phoneNumber} is already registered as ${mine.phoneNumberId}.`);
      }
      return [
        {
          type: 'phone_number.registered',
          data: {
            phone_number_id: command.phoneNumberId,
            tenant_id: command.tenantId,
            phone_number: command.phoneNumber,
            agent_config: command.agentConfig,
            test_mode: command.testMode,
            ownership_shown: false,
          },
        },
      ];
    }
    case 'assign':
      return assign(command, state);
    case 'update': {
      const mine = registrationOf(state, command.tenantId, command.phoneNumberId);
      if (!mine) throw notFound('phone number', 'phone_number_id');
      const agentConfig = command.agentConfig ?? mine.agentConfig;
      const testMode = command.testMode ?? mine.testMode;
      if (JSON.stringify(agentConfig) === JSON.stringify(mine.agentConfig) && testMode === mine.testMode) return [];
      return [
        {
          type: 'phone_number.updated',
          data: { phone_number_id: mine.phoneNumberId, agent_config: agentConfig, test_mode: testMode },
        },
      ];
    }
    case 'release': {
      const mine = registrationOf(state, command.tenantId, command.phoneNumberId);
      if (!mine) throw notFound('phone number', 'phone_number_id');
      return [{ type: 'phone_number.released', data: { phone_number_id: mine.phoneNumberId } }];
    }
    case 'request_verification':
      return requestVerification(command, state);
    case 'confirm_verification':
      return confirmVerification(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function assign(command: Extract<PhoneNumberCommand, { type: 'assign' }>, state: PhoneNumberState): PhoneNumberEvent[] {
  const mine = registrationOf(state, command.tenantId);
  const id = mine?.phoneNumberId ?? command.phoneNumberId;
  const agentConfig = command.agentConfig ?? mine?.agentConfig ?? DEFAULT_AGENT;
  if (state.owner === id && JSON.stringify(agentConfig) === JSON.stringify(mine?.agentConfig)) return [];
  return [
    {
      type: 'phone_number.assigned',
      data: {
        phone_number_id: id,
        tenant_id: command.tenantId,
        phone_number: command.phoneNumber,
        agent_config: agentConfig,
        test_mode: mine?.testMode ?? false,
        replaced_phone_number_id: state.owner !== null && state.owner !== id ? state.owner : null,
      },
    },
  ];
}

function requestVerification(
  command: Extract<PhoneNumberCommand, { type: 'request_verification' }>,
  state: PhoneNumberState,
): PhoneNumberEvent[] {
  const mine = registrationOf(state, command.tenantId, command.phoneNumberId);
  if (!mine) throw notFound('phone number', 'phone_number_id');
  if (state.owner === mine.phoneNumberId)
    throw conflict('This number is active: its ownership is shown already, no verification is needed.');
  if (mine.verification?.sessionId === command.sessionId) return []; // the same request, retried
  const at = Date.parse(command.at);
  // The tenant's calls to this number, over all its registrations of it (a release forgets none).
  const mineCalls = state.callsByTenant[command.tenantId] ?? [];
  const last = mineCalls.at(-1);
  if (last !== undefined && at - Date.parse(last) < VERIFICATION.callGapMs)
    throw new DomainError('rate_limited', 'At most one verification call per minute for a number; retry in a minute.');
  if (fullDay(mineCalls, VERIFICATION.callsPerDay, at))
    throw new DomainError(
      'rate_limited',
      `At most ${VERIFICATION.callsPerDay} verification calls per 24 hours for a number, also across releasing and registering it again; retry later.`,
    );
  if (fullDay(state.calls, VERIFICATION.callsPerNumberPerDay, at))
    throw new DomainError(
      'rate_limited',
      `This number has had ${VERIFICATION.callsPerNumberPerDay} verification calls in 24 hours (asked for by anyone); retry later.`,
    );
  return [
    {
      type: 'phone_number.verification_requested',
      data: {
        phone_number_id: mine.phoneNumberId,
        session_id: command.sessionId,
        code_hash: command.codeHash,
        requested_at: command.at,
        expires_at: new Date(at + VERIFICATION.codeTtlMs).toISOString(),
      },
    },
  ];
}

/** Whether `calls` (oldest first) hold `max` calls within the 24 hours before `at`. */
function fullDay(calls: readonly string[], max: number, at: number): boolean {
  const oldest = calls.length >= max ? calls.at(-max) : undefined;
  return oldest !== undefined && at - Date.parse(oldest) < VERIFICATION.dayMs;
}

/**
 * A code is checked against the pending one's hash. No event when there is nothing to check (the
 * registration owns the number already, or no code is pending: none asked, expired, or tries used
 * up); the handler tells these apart from the state.
 */
function confirmVerification(
  command: Extract<PhoneNumberCommand, { type: 'confirm_verification' }>,
  state: PhoneNumberState,
): PhoneNumberEvent[] {
  const mine = registrationOf(state, command.tenantId, command.phoneNumberId);
  if (!mine) throw notFound('phone number', 'phone_number_id');
  const pending = mine.verification;
  if (state.owner === mine.phoneNumberId || !pendingCode(pending, command.at)) return [];
  // Another registration owns the number: even the right code answers as a wrong one (no leak, no takeover).
  if (sameDigest(pending.codeHash, command.codeHash) && state.owner === null)
    return [{ type: 'phone_number.verified', data: { phone_number_id: mine.phoneNumberId } }];
  return [
    {
      type: 'phone_number.verification_failed',
      data: { phone_number_id: mine.phoneNumberId, tries_left: pending.triesLeft - 1 },
    },
  ];
}

/** Whether a code is pending at `at`: asked for, not expired, with tries left. */
export function pendingCode(pending: PendingVerification | null, at: string): pending is PendingVerification {
  return pending !== null && pending.triesLeft > 0 && Date.parse(at) < Date.parse(pending.expiresAt);
}
