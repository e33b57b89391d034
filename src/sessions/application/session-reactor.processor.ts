import { defineReactor, type Handled, type Processor } from '../../runtime/processing/processor';
import { defineTimerKind, type ScheduleTimer, type TimersService } from '../../runtime/timers/timers.service';
import { scriptFor } from '../domain/test-pool.scenarios';
import { sessionEdge, sessionStream, type SessionEvent } from '../domain/session.decider';

type ReactsTo = Extract<
  SessionEvent,
  {
    type:
      | 'session.placed'
      | 'session.opt_out_detected'
      | 'session.opt_out_recording_pending_purge'
      | 'session.ended'
      | 'session.failed'
      | 'session.analysis_requested';
  }
>;

/** Longest call the platform lets run before the watchdog ends it (simulated seconds). */
export const MAX_CALL_SECONDS = 3600;

/** What most session timers carry: whose session. */
export interface SessionTimerPayload {
  tenant_id: string | null;
  session_id: string;
}

/**
 * A production call's dispatch to the media gateway or over SIP: the placed request; `held_until` once
 * a hold parked it; `carrier_held` once the SIP dialer made it wait, `held_for` with the hold reason
 * it was held for (`carrier_limit` when absent: payloads stored before there were two).
 */
/** Why a production call waits at its dial: this instance is full, the trunk's limits, or the tenant's. */
export type DialHoldReason = 'capacity' | 'carrier_limit' | 'concurrency_limit';

export interface DispatchPayload extends SessionTimerPayload {
  request: SessionPlacedRequest;
  held_until?: number;
  carrier_held?: boolean;
  held_for?: DialHoldReason;
}

export type SessionPlacedRequest = Extract<SessionEvent, { type: 'session.placed' }>['data'];

const session = { tenant_id: true, session_id: true } as const;

/** The sessions context's timer kinds, each with its payload type (timer-kind.ts). */
export const TIMER = {
  simStep: defineTimerKind<SimStepPayload>('sim.step', { ...session, to: true, base: true, seq: true, scale: true }),
  gatewayDispatch: defineTimerKind<DispatchPayload>('media.dispatch', { ...session, request: true }),
  watchdog: defineTimerKind<SessionTimerPayload>('session.watchdog', session),
  purge: defineTimerKind<SessionTimerPayload & { recording_id: string }>('recording.purge', {
    ...session,
    recording_id: true,
  }),
  dncAdd: defineTimerKind<SessionTimerPayload & { phone_number: string | null }>('dnc.add_opt_out', {
    ...session,
    phone_number: true,
  }),
  disposition: defineTimerKind<SessionTimerPayload>('session.disposition', session),
  /** A call's post-call analysis, once it has ended (session-analysis.ts). */
  analysis: defineTimerKind<SessionTimerPayload>('session.analysis', session),
  /** A test persona call, handed to the PersonaCalls port (persona-calls.ts). */
  persona: defineTimerKind<SessionTimerPayload>('session.persona', session),
};

export interface SimStepPayload {
  tenant_id: string | null;
  session_id: string;
  to: string;
  /** The script played when it is not the destination's (a test inbound call); absent: `to` picks it. */
  script?: string;
  /** Dispatch time (ms since epoch); step times are offsets from it. */
  base: number;
  seq: number;
  scale: number;
  /** A production call (not test mode): its first step waits while a dispatch hold is on the tenant (credits). */
  production?: boolean;
  /** It waited: its steps are timed from when it went out, not from `base`. */
  held?: boolean;
}

/** The timer for step `seq` of a simulated call, or null when the script has no such step. */
export function simStepTimer(p: {
  tenantId: string | null;
  sessionId: string;
  to: string;
  script?: string;
  base: number;
  seq: number;
  scale: number;
  production?: boolean;
}) {
  const step = scriptFor(p.script ?? p.to)[p.seq - 1];
  if (!step) return null;
  const payload: SimStepPayload = {
    tenant_id: p.tenantId,
    session_id: p.sessionId,
    to: p.to,
    ...(p.script ? { script: p.script } : {}),
    base: p.base,
    seq: p.seq,
    scale: p.scale,
    ...(p.production ? { production: true } : {}),
  };
  return TIMER.simStep.at({
    dueAt: new Date(p.base + Math.round(step.at * 1000 * p.scale)),
    payload,
    dedupeKey: `sim:${p.sessionId}:${p.seq}`,
  });
}

/** The dedupe key of a session's watchdog: scheduled when it is placed, cancelled when it ends. */
export const watchdogKey = (sessionId: string): string => `watchdog:${sessionId}`;

/** A session's watchdog: it ends the call as failed if it is still going MAX_CALL_SECONDS (scaled) after `base`. */
export const watchdogTimer = (tenantId: string | null, sessionId: string, base: number, scale: number) =>
  TIMER.watchdog.at({
    dueAt: new Date(base + Math.round(MAX_CALL_SECONDS * 1000 * scale) + 30_000),
    payload: { tenant_id: tenantId, session_id: sessionId },
    dedupeKey: watchdogKey(sessionId),
  });

/** The dedupe key of a campaign call's disposition, scheduled once it has ended (session-dispositions.ts). */
export const dispositionKey = (sessionId: string): string => `disposition:${sessionId}`;

/** The dedupe key of a call's post-call analysis, scheduled once it has ended (session-analysis.ts). */
export const analysisKey = (sessionId: string): string => `analysis:${sessionId}`;

/**
 * Reacts to session events by scheduling durable timers in the same transaction as its checkpoint,
 * so each follow-up is scheduled exactly once and survives a crash; the timers then run commands
 * that are idempotent. A whole batch of events costs one INSERT (every timer it schedules) and, when
 * sessions ended in it, one DELETE of their watchdogs. Production calls go out through the dispatch
 * timer (MEDIA_GATEWAY_URL, or SIP_TRUNK_URI: `opts.gateway`). Test calls (and production calls with
 * neither) are played by the simulator: one `sim.step` timer per call, whose handler plays
 * the scripted steps one after another (application/session-timers.ts), scaled by SIM_TIME_SCALE.
 * A test call with `test_persona` is not: the conversations context converses with its persona.
 */
export function sessionReactor(
  timers: TimersService,
  opts: { simTimeScale: number; gateway: boolean; sip?: boolean },
): Processor {
  const follow = (event: Handled<ReactsTo>, due: ScheduleTimer[], ended: string[]): void => {
    const tenantId = event.metadata.tenant_id;
    const base = Date.parse(event.metadata.created_at);
    switch (event.type) {
      case 'session.placed': {
        const sessionId = event.data.session_id;
        const to = event.data.to_number;
        // A room's session carries real media in real time: its room ends it; the watchdog is not scaled.
        if (event.data.room_id !== undefined || to === null) {
          due.push(watchdogTimer(tenantId, sessionId, base, 1));
          return;
        }
        // A persona call is conversed by the conversations context, in real time (SIM_TIME_SCALE does not
        // apply to speech): no scripted steps, and an unscaled watchdog (decision 117).
        if (event.data.test_persona !== undefined) {
          due.push(watchdogTimer(tenantId, sessionId, base, 1));
          due.push(
            TIMER.persona.at({
              dueAt: new Date(base),
              payload: { tenant_id: tenantId, session_id: sessionId },
              dedupeKey: `persona:${sessionId}`,
            }),
          );
          return;
        }
        // A real call over SIP runs in real time: its watchdog is not scaled by SIM_TIME_SCALE.
        const realTime = opts.sip === true && !event.data.test_mode;
        due.push(watchdogTimer(tenantId, sessionId, base, realTime ? 1 : opts.simTimeScale));
        const inbound = event.data.direction === 'inbound';
        // An inbound call reported by the media gateway: the gateway has it and reports its signals.
        if (inbound && !event.data.test_script) return;
        if (!inbound && opts.gateway && !event.data.test_mode) {
          due.push(
            TIMER.gatewayDispatch.at({
              dueAt: new Date(base),
              payload: { tenant_id: tenantId, session_id: sessionId, request: event.data },
              dedupeKey: `dispatch:${sessionId}`,
            }),
          );
          return;
        }
        const first = simStepTimer({
          tenantId,
          sessionId,
          to,
          ...(event.data.test_script ? { script: event.data.test_script } : {}),
          base,
          seq: 1,
          scale: opts.simTimeScale,
          // A hold (a depleted balance) delays outbound production calls only: an inbound caller is already on the line.
          production: !event.data.test_mode && !inbound,
        });
        if (first) due.push(first);
        return;
      }
      case 'session.opt_out_detected':
        due.push(
          TIMER.dncAdd.at({
            dueAt: new Date(base),
            payload: {
              tenant_id: tenantId,
              session_id: event.data.session_id,
              phone_number: event.data.phone_number,
            },
            dedupeKey: `dnc:${event.data.session_id}`,
          }),
        );
        return;
      case 'session.opt_out_recording_pending_purge':
        due.push(
          TIMER.purge.at({
            dueAt: new Date(event.data.purge_after),
            payload: {
              tenant_id: tenantId,
              session_id: event.data.session_id,
              recording_id: event.data.recording_id,
            },
            dedupeKey: `purge:${event.data.session_id}`,
          }),
        );
        return;
      // A session's terminal events (the decider's TERMINAL statuses): its watchdog has nothing left to do.
      case 'session.ended':
        // A completed campaign call may get a disposition: the timer's handler decides whether it does.
        if (event.data.campaign_id && event.data.contact_id) {
          due.push(
            TIMER.disposition.at({
              dueAt: new Date(base),
              payload: { tenant_id: tenantId, session_id: event.data.session_id },
              dedupeKey: dispositionKey(event.data.session_id),
            }),
          );
        }
        ended.push(event.data.session_id);
        return;
      case 'session.failed':
        ended.push(event.data.session_id);
        return;
      // Appended with the terminal event of a call its agent asked analysed (session.analysis.ts).
      case 'session.analysis_requested':
        due.push(
          TIMER.analysis.at({
            dueAt: new Date(base),
            payload: { tenant_id: tenantId, session_id: event.data.session_id },
            dedupeKey: analysisKey(event.data.session_id),
          }),
        );
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  };
  // Whether the last batch scheduled anything: only then is the timer loop worth waking.
  let scheduled = false;
  return defineReactor<ReactsTo>({
    name: 'session_reactor',
    // Only sessions' own events: the same types appended elsewhere (a test's synthetic events) are not calls.
    stream: sessionStream,
    edge: sessionEdge.only(
      'session.placed',
      'session.opt_out_detected',
      'session.opt_out_recording_pending_purge',
      'session.ended',
      'session.failed',
      'session.analysis_requested',
    ),
    afterCommit: () => {
      if (scheduled) timers.poke();
      scheduled = false;
    },
    async applyBatch(tx, events) {
      const due: ScheduleTimer[] = [];
      const ended: string[] = [];
      for (const event of events) follow(event, due, ended);
      scheduled = due.length > 0;
      await timers.scheduleMany(due, tx);
      // After the insert: a session placed and ended in one batch keeps no watchdog either.
      await timers.cancelMany(ended.map(watchdogKey), tx);
    },
  });
}
