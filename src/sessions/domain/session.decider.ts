/**
 * The session decider: placing a call, opening a room's session, media signals, the watchdog, purges,
 * dispositions and post-call analyses.
 */
import type { Decider } from '../../kernel/decider';
import { sessionEdge } from './session.edge';
import { DomainError } from '../../kernel/result';
import { type MediaSignal, toMilliseconds } from './media-signal';
import { decideDisposition } from './session.disposition';
import { analysisRequested, decideAnalysis } from './session.analysis';
import {
  isTerminal,
  Live,
  OpenRoomSession,
  SessionCommand,
  SessionEvent,
  SessionState,
  SignalContext,
} from './session.state';
import type { TranscriptEntry } from '../sessions.events';

export * from './session.state';
export { sessionEdge } from './session.edge';

export const sessionDecider: Decider<SessionCommand, SessionState, SessionEvent> = {
  edge: sessionEdge,
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  // Ended with its recording stored: nothing but a rare later command (a purge, a disposition, an
  // analysis) changes it, so the command cache need not hold its transcript meanwhile.
  settled: (state) => state.status !== 'none' && isTerminal(state.status) && state.recording !== null,
};

function evolve(state: SessionState, event: SessionEvent): SessionState {
  if (event.type === 'session.placed') {
    const d = event.data;
    return {
      status: 'queued',
      sessionId: d.session_id,
      direction: d.direction,
      toNumber: d.to_number,
      fromNumber: d.from_number,
      testMode: d.test_mode,
      roomId: d.room_id ?? null,
      campaignId: d.campaign_id,
      contactId: d.contact_id,
      contact: { email: d.email, first_name: d.first_name, last_name: d.last_name },
      clientReferenceId: d.client_reference_id,
      dispositions: d.agent_config.dispositions ?? [],
      agentDisposition: false,
      dispositionSet: false,
      analysisPlan: d.agent_config.analysis ?? null,
      analysed: false,
      createdAt: null,
      startedAt: null,
      endedAt: null,
      durationSeconds: 0,
      transcript: [],
      turnMetrics: [],
      functions: [],
      seq: 0,
      optedOut: false,
      consentRefused: false,
      recording: null,
      holdReason: null,
      private: d.sealed_prompt !== undefined,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'session.created':
    case 'function.timeout':
    case 'session.transfer_initiated':
    case 'session.transfer_failed':
    case 'session.analysis_requested':
    case 'session.amd_decided':
      return state;
    case 'session.dispatch_held':
      return { ...state, holdReason: event.data.reason };
    case 'session.dispatch_released':
      return { ...state, holdReason: null };
    case 'session.agent_disposition_given':
      return { ...state, agentDisposition: true };
    case 'session.disposition_set':
      return { ...state, dispositionSet: true };
    case 'session.analysis_completed':
      return { ...state, analysed: true };
    case 'session.signal_applied':
      return { ...state, seq: Math.max(state.seq, event.data.seq) };
    case 'session.started':
      return { ...state, status: 'in_progress', startedAt: event.data.started_at, holdReason: null };
    case 'session.transcript_appended':
      return { ...state, transcript: [...state.transcript, event.data.entry] };
    case 'session.turn_measured':
      return { ...state, turnMetrics: [...state.turnMetrics, event.data.turn] };
    case 'session.function_invoked':
      return { ...state, functions: [...state.functions, event.data.invocation] };
    case 'session.opt_out_detected':
      return { ...state, optedOut: true };
    case 'session.consent_refused':
      return { ...state, consentRefused: true };
    case 'session.ended':
    case 'session.failed':
      return {
        ...state,
        status: event.data.status,
        endedAt: event.data.ended_at,
        durationSeconds: event.data.duration_seconds,
        holdReason: null,
      };
    case 'session.recording_completed':
      return { ...state, recording: { id: event.data.recording_id, state: 'available' } };
    case 'session.opt_out_recording_pending_purge':
      return { ...state, recording: { id: event.data.recording_id, state: 'pending_purge' } };
    case 'session.opt_out_recording_purged':
      return { ...state, recording: { id: event.data.recording_id, state: 'purged' } };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function decide(command: SessionCommand, state: SessionState): SessionEvent[] {
  if (command.type === 'place') {
    if (state.status !== 'none') return []; // a retried placement creates nothing twice
    const voiceId = command.agentConfig.voice_id ?? 'voice_default';
    const common = {
      session_id: command.sessionId,
      to_number: command.toNumber,
      from_number: command.fromNumber,
      campaign_id: command.campaignId ?? null,
      contact_id: command.contactId ?? null,
    };
    return [
      {
        type: 'session.placed',
        data: {
          ...common,
          agent_config: command.agentConfig,
          voice_id: voiceId,
          test_mode: command.testMode,
          client_reference_id: command.clientReferenceId ?? null,
          direction: command.direction ?? 'outbound',
          ...(command.testScript ? { test_script: command.testScript } : {}),
          ...(command.testPersona ? { test_persona: command.testPersona } : {}),
          ...(command.sealedPrompt !== undefined ? { sealed_prompt: command.sealedPrompt } : {}),
          email: command.contact?.email ?? null,
          first_name: command.contact?.first_name ?? null,
          last_name: command.contact?.last_name ?? null,
        },
      },
      { type: 'session.created', data: { ...common, voice_id: voiceId, status: 'queued' } },
      // Held at once: the answer to the request already says why the call waits (test calls are never held).
      ...(command.holdReason && !command.testMode
        ? [
            {
              type: 'session.dispatch_held' as const,
              data: { session_id: command.sessionId, reason: command.holdReason },
            },
          ]
        : []),
    ];
  }
  if (command.type === 'open_room') return state.status === 'none' ? openRoom(command) : [];
  if (state.status === 'none') throw new DomainError('not_found', 'No such session.', 'session_id');
  switch (command.type) {
    case 'signal':
      if (command.seq <= state.seq) return [];
      return [
        ...applySignal(state, command.signal, command),
        { type: 'session.signal_applied', data: { seq: command.seq, kind: command.signal.kind } },
      ];
    case 'watchdog':
      // Every call gets a terminal event: one that outlives its maximum length is ended as failed;
      // one still held then ends with its hold's reason (e.g. insufficient_credits), not a timeout.
      if (isTerminal(state.status)) return [];
      return ending(
        state,
        { kind: 'hangup', status: 'failed', end_reason: state.holdReason ?? 'watchdog_timeout' },
        command,
      );
    case 'hold':
      return state.status === 'queued' && state.holdReason !== command.reason
        ? [{ type: 'session.dispatch_held', data: { session_id: state.sessionId, reason: command.reason } }]
        : [];
    case 'release':
      return state.status === 'queued' && state.holdReason !== null
        ? [{ type: 'session.dispatch_released', data: { session_id: state.sessionId } }]
        : [];
    case 'purge_recording':
      if (state.recording?.state !== 'pending_purge') return [];
      return [
        {
          type: 'session.opt_out_recording_purged',
          data: { session_id: state.sessionId, recording_id: state.recording.id, purged_at: command.at },
        },
      ];
    case 'set_disposition':
      return decideDisposition(state, command);
    case 'set_analysis':
      return decideAnalysis(state, command);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function openRoom(command: OpenRoomSession): SessionEvent[] {
  const voiceId = command.agentConfig.voice_id ?? 'voice_default';
  const common = {
    session_id: command.sessionId,
    to_number: null,
    from_number: null,
    campaign_id: null,
    contact_id: null,
  };
  return [
    {
      type: 'session.placed',
      data: {
        ...common,
        // The participant came to the agent.
        direction: 'inbound',
        agent_config: command.agentConfig,
        voice_id: voiceId,
        test_mode: false,
        client_reference_id: command.clientReferenceId,
        email: null,
        first_name: null,
        last_name: null,
        room_id: command.roomId,
      },
    },
    { type: 'session.created', data: { ...common, voice_id: voiceId, status: 'queued' } },
    { type: 'session.started', data: { session_id: command.sessionId, started_at: command.startedAt } },
  ];
}

function applySignal(state: Live, signal: MediaSignal, ctx: SignalContext): SessionEvent[] {
  const live = state.status === 'in_progress';
  const id = state.sessionId;
  switch (signal.kind) {
    case 'answered':
      return state.status === 'queued'
        ? [{ type: 'session.started', data: { session_id: id, started_at: ctx.at } }]
        : [];
    case 'turn': {
      // A turn without words (one that is only a tool call) is not kept: the call is in function_invocations.
      // Keys pressed are a user turn with no words (`content: ""`) and the digits.
      const dtmf = signal.role === 'user' ? signal.dtmf : undefined;
      if (!live || (!signal.content?.trim() && !dtmf)) return [];
      // A private call's words (and keys: a code typed in) stay with the gateway.
      const entry: TranscriptEntry = {
        role: signal.role,
        ...(state.private ? {} : dtmf ? { content: '', dtmf } : { content: signal.content }),
        t: toMilliseconds(signal.t),
      };
      return [{ type: 'session.transcript_appended', data: { entry } }];
    }
    case 'turn_metrics': {
      // Kept while the call is live, as its turns are; a private call's figures say nothing of its words.
      if (!live) return [];
      const { kind: _kind, ...turn } = signal;
      return [{ type: 'session.turn_measured', data: { turn: { ...turn, t: toMilliseconds(turn.t) } } }];
    }
    case 'function_invoked':
      return live
        ? [
            {
              type: 'session.function_invoked',
              data: { invocation: { name: signal.name, status: signal.status, duration_ms: signal.duration_ms } },
            },
          ]
        : [];
    case 'function_timeout':
      return live
        ? [
            {
              type: 'function.timeout',
              data: {
                session_id: id,
                function_id: signal.function_id,
                name: signal.name,
                timeout_ms: signal.timeout_ms,
              },
            },
          ]
        : [];
    case 'transfer':
      return live
        ? [
            {
              type: 'session.transfer_initiated',
              data: {
                session_id: id,
                to_number: state.toNumber,
                from_number: state.fromNumber,
                transfer_number: signal.transfer_number,
                transferred_at: ctx.at,
              },
            },
          ]
        : [];
    case 'amd':
      return live
        ? [{ type: 'session.amd_decided', data: { result: signal.result, decided_after_ms: signal.decided_after_ms } }]
        : [];
    case 'transfer_failed':
      return live
        ? [
            {
              type: 'session.transfer_failed',
              data: {
                session_id: id,
                transfer_number: signal.transfer_number,
                reason: signal.reason,
                sip_code: signal.sip_code,
              },
            },
          ]
        : [];
    case 'opt_out':
      return live && !state.optedOut
        ? [
            {
              type: 'session.opt_out_detected',
              data: { session_id: id, phone_number: remoteNumber(state), detected_at: ctx.at },
            },
          ]
        : [];
    case 'consent_refused':
      return live && !state.consentRefused
        ? [{ type: 'session.consent_refused', data: { session_id: id, refused_at: ctx.at } }]
        : [];
    case 'agent_disposition':
      // A private call keeps no free text of it either: its note could repeat what was said.
      return live
        ? [
            {
              type: 'session.agent_disposition_given',
              data: { code: signal.code, note: state.private ? null : signal.note, at: ctx.at },
            },
          ]
        : [];
    case 'hangup':
      return isTerminal(state.status) ? [] : ending(state, signal, ctx);
    case 'recording_ready': {
      // No recording once the caller refused consent, of a private call, and only one per session.
      if (!isTerminal(state.status) || state.consentRefused || state.private || state.recording) return [];
      const recorded: SessionEvent = {
        type: 'session.recording_completed',
        data: {
          session_id: id,
          ...contactFields(state),
          recording_id: signal.recording_id,
          status: 'completed',
          channels: signal.channels,
          started_at: state.startedAt,
          ended_at: state.endedAt,
          duration_seconds: signal.duration_seconds,
          recording_url: ctx.recordingUrl(signal.recording_id),
        },
      };
      if (!state.optedOut) return [recorded];
      const purgeAfter = new Date(new Date(ctx.at).getTime() + ctx.purgeGraceMs).toISOString();
      return [
        recorded,
        {
          type: 'session.opt_out_recording_pending_purge',
          data: { session_id: id, recording_id: signal.recording_id, purge_after: purgeAfter },
        },
      ];
    }
    default: {
      const unreachable: never = signal;
      return unreachable;
    }
  }
}

/** The other party's number: the callee of an outbound call, the caller of an inbound one. */
export const remoteNumber = (state: Pick<Live, 'direction' | 'toNumber' | 'fromNumber'>): string | null =>
  state.direction === 'inbound' ? state.fromNumber : state.toNumber;

/** Who the call is with, as every outcome and recording payload repeats it (identity null outside campaigns). */
function contactFields(state: Live) {
  return {
    campaign_id: state.campaignId,
    contact_id: state.contactId,
    from_number: state.fromNumber,
    to_number: state.toNumber,
    phone_number: remoteNumber(state),
    email: state.contact.email,
    first_name: state.contact.first_name,
    last_name: state.contact.last_name,
  };
}

/**
 * The call's terminal event, followed by `session.analysis_requested` when the call it ends is to be
 * analysed (session.analysis.ts): the reactor schedules the analysis for those calls only.
 */
function ending(state: Live, signal: Extract<MediaSignal, { kind: 'hangup' }>, ctx: SignalContext): SessionEvent[] {
  const terminal = finish(state, signal, ctx);
  const ended = evolve(state, terminal);
  return ended.status === 'none' ? [terminal] : [terminal, ...analysisRequested(ended)];
}

/** session.ended for a completed call, session.failed for every other final status; same shape. */
function finish(state: Live, signal: Extract<MediaSignal, { kind: 'hangup' }>, ctx: SignalContext): SessionEvent {
  const connected = state.startedAt !== null;
  const duration = !connected
    ? 0
    : (signal.duration_seconds ??
      Math.max(0, Math.round((Date.parse(ctx.at) - Date.parse(state.startedAt ?? ctx.at)) / 1000)));
  // Room sessions are not metered by the minute (docs/rooms.md).
  const cost =
    state.testMode || state.roomId !== null || duration === 0
      ? 0
      : Math.ceil(duration / 60) * ctx.centsPerStartedMinute;
  const shared = {
    session_id: state.sessionId,
    client_reference_id: state.clientReferenceId,
    ...contactFields(state),
    end_reason: signal.end_reason,
    ended_at: ctx.at,
    duration_seconds: duration,
    actual_cost_cents: cost,
    transcript: state.transcript,
    transcript_url: state.transcript.length > 0 ? ctx.transcriptUrl : null,
    function_invocations: state.functions,
  };
  if (signal.status === 'completed' && state.startedAt !== null) {
    return { type: 'session.ended', data: { ...shared, status: 'completed', started_at: state.startedAt } };
  }
  const status = signal.status === 'completed' ? 'failed' : signal.status;
  const messageLeft = status === 'voicemail' && signal.voicemail_message_left === true;
  return {
    type: 'session.failed',
    data: { ...shared, status, started_at: state.startedAt, ...(messageLeft ? { voicemail_message_left: true } : {}) },
  };
}
