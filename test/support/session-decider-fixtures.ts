/**
 * What the session decider specs (src/sessions/domain/session.decider*.spec.ts) share: ids, the clock,
 * commands, the events of a call's history, and a specification that checks every event the decider
 * decides against the catalog schema. It is here, not next to them, because the build compiles every
 * non-spec file under src/.
 */
import { EventCatalog } from '../../src/catalog/event-catalog';
import { sessionEvents } from '../../src/sessions/sessions.events';
import type { Decider } from '../../src/kernel/decider';
import type { MediaSignal } from '../../src/sessions/domain/media-signal';
import {
  PlaceCall,
  SessionCommand,
  sessionDecider,
  SessionEvent,
  SessionState,
  SignalContext,
} from '../../src/sessions/domain/session.decider';
import { DeciderSpecification } from './decider-specification';

// The context's own fragment holds every catalog type the decider emits.
const { isCatalogType, validatePayload } = EventCatalog.from([sessionEvents]);

export const SESSION_ID = 'ses_0123456789abcdefghij';
export const TO = '+14155550100';
export const FROM = '+14155550000';
export const T0 = Date.parse('2026-03-02T17:00:00.000Z');
export const TRANSCRIPT_URL = `https://api.example/v1/sessions/${SESSION_ID}/transcript.json`;
export const GRACE_MS = 7 * 24 * 3600 * 1000;
const RATE = 10;

export function at(seconds: number): string {
  return new Date(T0 + seconds * 1000).toISOString();
}

export function ctx(seconds: number, over: Partial<SignalContext> = {}): SignalContext {
  return {
    at: at(seconds),
    transcriptUrl: TRANSCRIPT_URL,
    recordingUrl: (id) => `https://api.example/recordings/${id}.wav`,
    centsPerStartedMinute: RATE,
    purgeGraceMs: GRACE_MS,
    ...over,
  };
}

export function placeCommand(over: Partial<PlaceCall> = {}): PlaceCall {
  return {
    type: 'place',
    sessionId: SESSION_ID,
    toNumber: TO,
    fromNumber: FROM,
    agentConfig: { prompt: 'Be helpful.' },
    testMode: true,
    ...over,
  };
}

export function signal(seq: number, media: MediaSignal, seconds: number, over: Partial<SignalContext> = {}) {
  return { type: 'signal', seq, signal: media, ...ctx(seconds, over) } satisfies SessionCommand;
}

export function expectCatalogValid(events: readonly SessionEvent[]): void {
  for (const e of events) {
    if (!isCatalogType(e.type)) continue;
    expect({ type: e.type, errors: validatePayload(e.type, e.data) }).toEqual({ type: e.type, errors: [] });
  }
}

export const catalogTypes = (events: readonly SessionEvent[]): string[] =>
  events.filter((e) => isCatalogType(e.type)).map((e) => e.type);

/** Every event the decider decided in this test file: each spec file checks them all again in afterAll. */
export const emitted: SessionEvent[] = [];

/** The session decider, with every decision it makes checked against the catalog schema. */
export const checkedSessionDecider: Decider<SessionCommand, SessionState, SessionEvent> = {
  ...sessionDecider,
  decide(command, state) {
    const decided = sessionDecider.decide(command, state);
    emitted.push(...decided);
    expectCatalogValid(decided);
    return decided;
  },
};

export const spec = DeciderSpecification.for(checkedSessionDecider);

/**
 * One given/when/then step of a longer call: returns the history with the decided events appended, for
 * the next step to start from. `expected` must be plain events (no asymmetric matchers): it is folded.
 */
export function step(history: readonly SessionEvent[], command: SessionCommand, expected: SessionEvent[]) {
  spec.given(history).when(command).then(expected);
  return [...history, ...expected];
}

/** Expected event with only these data fields checked (as toMatchObject does). */
export const eventMatching = (type: SessionEvent['type'], data: object): SessionEvent =>
  expect.objectContaining({ type, data: expect.objectContaining(data) });

export const applied = (seq: number, kind: MediaSignal['kind']): SessionEvent => ({
  type: 'session.signal_applied',
  data: { seq, kind },
});

/** What placeCommand({ testMode, campaignId, contactId, contact, agentConfig }) decides. */
export function placed(
  opts: Partial<Pick<PlaceCall, 'testMode' | 'campaignId' | 'contactId' | 'contact' | 'agentConfig'>> = {},
): SessionEvent[] {
  const common = {
    session_id: SESSION_ID,
    to_number: TO,
    from_number: FROM,
    campaign_id: opts.campaignId ?? null,
    contact_id: opts.contactId ?? null,
  };
  return [
    {
      type: 'session.placed',
      data: {
        ...common,
        agent_config: opts.agentConfig ?? { prompt: 'Be helpful.' },
        voice_id: opts.agentConfig?.voice_id ?? 'voice_default',
        test_mode: opts.testMode ?? true,
        client_reference_id: null,
        direction: 'outbound',
        email: opts.contact?.email ?? null,
        first_name: opts.contact?.first_name ?? null,
        last_name: opts.contact?.last_name ?? null,
      },
    },
    {
      type: 'session.created',
      data: { ...common, voice_id: opts.agentConfig?.voice_id ?? 'voice_default', status: 'queued' },
    },
  ];
}

/** What an `answered` signal decides on a queued session. */
export const answered = (seq: number, seconds: number): SessionEvent[] => [
  { type: 'session.started', data: { session_id: SESSION_ID, started_at: at(seconds) } },
  applied(seq, 'answered'),
];

/** What a `turn` signal decides on a live session. */
export const turn = (seq: number, entry: { role: 'agent' | 'user'; content?: string; t: number }): SessionEvent[] => [
  { type: 'session.transcript_appended', data: { entry } },
  applied(seq, 'turn'),
];

/** Who the call is with, as every outcome and recording payload repeats it. */
export const PARTIES = {
  campaign_id: null,
  contact_id: null,
  from_number: FROM,
  to_number: TO,
  phone_number: TO,
  email: null,
  first_name: null,
  last_name: null,
};

/** session.recording_completed of a call on TO answered at `startedS` and ended at `endedS` (seconds after T0). */
export const recordingCompleted = (startedS: number, endedS: number): SessionEvent => ({
  type: 'session.recording_completed',
  data: {
    session_id: SESSION_ID,
    ...PARTIES,
    recording_id: 'rec_abcdefghij0123456789',
    status: 'completed',
    channels: 'dual',
    started_at: at(startedS),
    ended_at: at(endedS),
    duration_seconds: endedS - startedS,
    recording_url: 'https://api.example/recordings/rec_abcdefghij0123456789.wav',
  },
});

type EndedData = Extract<SessionEvent, { type: 'session.ended' }>['data'];
type FailedData = Extract<SessionEvent, { type: 'session.failed' }>['data'];

/** session.ended of a call on TO, free and with an empty transcript unless `data` says otherwise. */
export const ended = (
  data: Pick<EndedData, 'end_reason' | 'started_at' | 'ended_at' | 'duration_seconds'> & Partial<EndedData>,
): SessionEvent => ({
  type: 'session.ended',
  data: { ...outcomeDefaults(), status: 'completed', ...data },
});

/** session.failed of a call on TO that never connected, unless `data` says otherwise. */
export const failed = (
  data: Pick<FailedData, 'status' | 'end_reason' | 'ended_at'> & Partial<FailedData>,
): SessionEvent => ({
  type: 'session.failed',
  data: { ...outcomeDefaults(), started_at: null, ...data },
});

function outcomeDefaults() {
  return {
    session_id: SESSION_ID,
    client_reference_id: null,
    ...PARTIES,
    duration_seconds: 0,
    actual_cost_cents: 0,
    transcript: [],
    transcript_url: null,
    function_invocations: [],
  };
}
