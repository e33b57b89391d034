import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { roomsSettings } from '../rooms.config';
import { CLOCK, Clock } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { DualChannelRecorder } from '../../kernel/media/dual-channel-recorder';
import { DomainError } from '../../kernel/result';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { LogObserver } from '../../runtime/processing/log-observer';
import { RuntimeMetrics } from '../../runtime/observability/runtime-metrics';
import { Histogram, Registry } from 'prom-client';
import type { Worker } from '../../runtime/workers/polling-worker';
import { TimersService, type DueTimer, type TimerOutcome } from '../../runtime/timers/timers.service';
import { recordingPath } from '../../sessions';
import { CallHost, ConversationCapacity, type ConversationSlot, type HostedCall } from '../../conversations';
import { errorMessage } from '../../kernel/errors';
import { candidatePolicyFor, type CandidatePolicy, quote, screenCandidates } from '../domain/ice-candidates';
import { offerProblem } from '../domain/room-offer';
import { EndReason, refusal, Room, roomDecider, roomStream, type RoomStatus } from '../domain/room.decider';
import type { AudioTransport } from '../../conversations';
import { AgentSetupFailed, OfferRejected, recordingRateFor } from '../infra/agent-offer';
import type { AgentPeer } from '../infra/agent-peer';
import { hangUpAtGateway, relayOffer, type GatewayTarget, type RoomContext } from '../infra/media-gateway-relay';
import { agentGreeting } from '../infra/room-assets';
import { RoomSlots } from '../infra/room-slots';
import { RoomAction } from './room.commands';
import { type CallBreak, failRoom, roomCallSink, type RoomCallEnd } from './room-call-sink';
import {
  CONNECTION_LOST_MS,
  MAX_ROOM_CALL_MS,
  mediaWatchKey,
  ROOM_TIMER,
  WATCH_SLACK_MS,
  type RoomTimerPayload,
} from './room-reactor.processor';

interface LiveCall {
  tenantId: string;
  room: Room;
  joinedAt: number;
  /** The platform's own agent; null when the call went to the media gateway. */
  peer: AgentPeer | null;
  recorder: DualChannelRecorder | null;
  recordingId: string | null;
  /** The joined call carried by conversations' CallHost (the agent talks on the peer); null through the media gateway. */
  hosted: HostedCall<RoomCallEnd> | null;
  /** Set once a call not hosted (yet) ends: resolves when it is over here (its slot freed). */
  ending: Promise<void> | null;
  /** A hosted call: resolves once it has ended (whoever ended it) and is over here. */
  over: Promise<void> | null;
}

/**
 * This instance carries all the conversations it can (conversations' capacity): the offer is refused
 * (503 `at_capacity` with Retry-After), nothing recorded; the participant may join again later.
 */
export class RoomsAtCapacity extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The agent cannot take another call right now; join again in a few seconds.');
  }
}

/** Whether the call's end has begun. */
const isEnding = (call: LiveCall): boolean => (call.hosted ? call.hosted.isEnding : call.ending !== null);

/** The tenant has MAX_LIVE_ROOMS_PER_TENANT live rooms already: the offer is refused (429), nothing recorded. */
export class LiveRoomsCapReached extends Error {
  constructor(readonly cap: number) {
    super(
      `This account already has ${cap} live rooms, the most allowed at once (MAX_LIVE_ROOMS_PER_TENANT); ` +
        'join again when one has ended.',
    );
  }
}

/** How often the held calls are checked (lost, too long) and their fallback watches pushed back. */
const CHECK_MS = 1_000;
const HEARTBEAT_MS = 5_000;

/**
 * The calls this instance carries: a WHIP offer becomes the agent's answer (the platform's own peer,
 * or the media gateway's), then room.joined. A call ends when the participant hangs up, when no audio
 * has come from them for 30 s (`connection_lost`, as of the last audio), after an hour
 * (`max_duration`), when the room is completed elsewhere, or when the service stops; its recording
 * is then written and reported (room.recorded). A durable watch per joined room, pushed back by a
 * heartbeat while this instance holds the call, ends a call whose instance died (room.media_watch).
 * A socket or recording file that fails breaks only its call: the room fails (media_error,
 * recording_failed), the peer is closed, the partial recording dropped. Each call holds one of its
 * tenant's live-room slots (RoomSlots) from the offer to its end.
 */
@Injectable()
export class RoomCalls implements Worker {
  readonly name = 'room-calls';
  private readonly logger = new Logger('Rooms');
  private readonly live = new Map<string, LiveCall>();
  /** The places among this instance's conversations of the calls carried here (not the gateway's), by room. */
  private readonly places = new Map<string, ConversationSlot>();
  private timer: NodeJS.Timeout | null = null;
  private lastHeartbeat = 0;
  private stopObserving: (() => void) | null = null;
  private readonly registry = new Registry();
  /** The agent's outbound pacing: how far each frame's send strays from 20 ms after the previous one. */
  private readonly frameJitter = new Histogram({
    name: 'room_agent_frame_jitter_ms',
    help: "How far the time between two frames the agent's peer sends strays from 20 ms (a catch-up burst: 20).",
    buckets: [1, 2, 5, 10, 15, 20, 30, 50, 100],
    registers: [this.registry],
  });

  constructor(
    private readonly commands: CommandBus,
    private readonly executor: CommandExecutor,
    private readonly timers: TimersService,
    private readonly observer: LogObserver,
    private readonly slots: RoomSlots,
    private readonly host: CallHost,
    private readonly capacity: ConversationCapacity,
    private readonly metrics: RuntimeMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  register(): void {
    this.metrics.contribute(this.registry);
    this.timers.register(ROOM_TIMER.mediaWatch, (t) => this.watch(t));
    // A room completed by another instance (its fallback watch, a hang-up it served) ends the call here.
    this.stopObserving = this.observer.observe(['room.completed'], (events) => {
      for (const e of events) if (roomStream.owns(e.streamId)) void this.end(roomStream.idOf(e.streamId));
    });
  }

  start(): void {
    this.timer ??= setInterval(() => void this.check(), CHECK_MS);
    this.timer.unref();
  }

  /** Ends every call held here (the room completes as of now) before the database goes. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopObserving?.();
    await Promise.all([...this.live.keys()].map((id) => this.end(id, 'connection_lost')));
  }

  private get gateway(): GatewayTarget | null {
    const { mediaGatewayUrl: url, mediaGatewaySecret: secret } = this.config;
    return url && secret ? { url, secret } : null;
  }

  /**
   * The room as its stream has it (no projection lag): its status, whether it was ever joined, and its
   * session; null for no such room.
   */
  async joinState(roomId: string): Promise<{ status: RoomStatus; joined: boolean; sessionId: string } | null> {
    const state = await this.executor.state(roomStream(roomId), roomDecider);
    if (state.status === 'none') return null;
    return { status: state.status, joined: state.joinedAt !== null, sessionId: state.session_id };
  }

  /**
   * A participant's offer: answered by the agent, then the room is joined. A bad offer records
   * nothing; an agent that cannot be set up fails the room (room.failed) and answers 410.
   */
  async join(tenantId: string, roomId: string, offerSdp: string): Promise<string> {
    const state = await this.executor.state(roomStream(roomId), roomDecider);
    const refused = refusal(state, this.clock.now().toISOString(), 'join');
    if (refused) throw refused;
    if (state.status === 'none') throw new DomainError('not_found', 'No such room.', 'room_id');
    if (this.live.has(roomId)) throw new DomainError('conflict', 'Someone has already joined this room.');
    // Before anything is bound or relayed: one audio section, nothing else.
    const problem = offerProblem(offerSdp);
    if (problem) throw new DomainError('invalid_request', problem);
    // The participant's candidates the agent (or the gateway) may send to: public addresses only,
    // unless allowed; never a host name (docs/rooms.md, "Candidates").
    const screened = screenCandidates(offerSdp, this.candidatePolicy());
    if (screened.dropped.length > 0)
      this.logger.log(
        `room ${roomId}: dropped ${screened.dropped.length} of the participant's ICE candidates: ` +
          screened.dropped
            .slice(0, 5)
            .map((d) => `${d.reason} "${d.quoted}"`)
            .join(', '),
      );
    offerSdp = screened.sdp;
    const gateway = this.gateway;
    const call: LiveCall = {
      tenantId,
      room: state,
      joinedAt: 0,
      peer: null,
      recorder: null,
      recordingId: null,
      hosted: null,
      ending: null,
      over: null,
    };
    // A call carried here takes a place among this instance's conversations (the gateway counts its own).
    if (!gateway) {
      const place = this.capacity.request('room');
      if (!place.slot) throw new RoomsAtCapacity(place.retryAfterSeconds);
      this.places.set(roomId, place.slot);
    }
    this.live.set(roomId, call);
    try {
      if (!(await this.slots.take(tenantId, roomId))) throw new LiveRoomsCapReached(this.slots.cap);
    } catch (err) {
      this.live.delete(roomId);
      this.givePlaceBack(roomId);
      throw err;
    }
    let answer: string;
    try {
      answer = gateway
        ? await relayOffer(gateway, this.contextOf(call), offerSdp)
        : await this.answerHere(call, offerSdp);
    } catch (err) {
      this.live.delete(roomId);
      await this.release(call);
      if (err instanceof OfferRejected) throw new DomainError('invalid_request', err.message);
      const failure =
        err instanceof AgentSetupFailed ? err : new AgentSetupFailed(err instanceof Error ? err.message : String(err));
      this.logger.warn(`room ${roomId}: agent setup failed: ${quote(failure.message)}`);
      await this.commands.execute(
        new RoomAction(tenantId, roomId, { type: 'fail', errorCode: failure.code, errorMessage: failure.message }),
      );
      throw new DomainError('gone', `This room could not be set up: ${failure.message}`);
    }
    try {
      const { state: joined } = await this.commands.execute(new RoomAction(tenantId, roomId, { type: 'join' }));
      if (joined.status !== 'none') call.room = joined;
      call.joinedAt =
        joined.status !== 'none' && joined.joinedAt ? Date.parse(joined.joinedAt) : this.clock.now().getTime();
      if (call.peer) await this.converse(call, call.peer);
    } catch (err) {
      // Refused after all (the link expired, or another instance took the join meanwhile), or its session
      // could not be opened: a call the host holds already is ended by it (the room fails), else released.
      if (call.hosted) {
        void call.hosted.end({ broke: 'media_error', message: `The call could not be started: ${errorMessage(err)}` });
        await call.over;
        throw err;
      }
      this.live.delete(roomId);
      await this.release(call);
      await this.hangUpAtGateway(call);
      throw err;
    }
    return answer;
  }

  /**
   * The participant hung up (WHIP DELETE): the room completes, wherever its call is held. Answers the
   * room's status after it (`completed`, or `failed` for a call that broke before).
   */
  async hangUp(tenantId: string, roomId: string): Promise<RoomStatus> {
    const { state } = await this.commands.execute(
      new RoomAction(tenantId, roomId, { type: 'complete', reason: 'hangup' }),
    );
    await this.end(roomId);
    return state.status === 'none' ? 'completed' : state.status;
  }

  /**
   * The audio of the room's call held here (the agent's own peer), for a conversation to run on:
   * `play` a FrameSource to speak (the greeting stops), `onFrame` to hear, `onClosed` for the end.
   * Null when the call is not held here, goes through the media gateway, or is ending.
   */
  transportOf(roomId: string): AudioTransport | null {
    const call = this.live.get(roomId);
    return call && !isEnding(call) ? call.peer : null;
  }

  /**
   * The agent talks on the call held here, carried by conversations' CallHost: the room's session is
   * opened first (the room reactor's sync opens it again, a no-op), so that the conversation's turns
   * have a session to go to. When the agent ends it (goodbye, end_call, a transfer), the room
   * completes as on "Hang up". The host ends the call once, whoever ends it: the conversation, the
   * peer, the room (completed, or failed for a call that broke), then the recording (room.recorded).
   */
  private async converse(call: LiveCall, peer: AgentPeer): Promise<void> {
    const { room, tenantId } = call;
    const roomId = room.room_id;
    const startedAt = new Date(call.joinedAt);
    const agent = { ...(room.agent_config ?? { prompt: '' }), voice_id: room.voice_id };
    const hosted = this.host.open<RoomCallEnd>({
      tenantId,
      sessionId: room.session_id,
      agent,
      line: { hangUp: () => peer.close() },
      sink: roomCallSink(this.commands, tenantId, room, startedAt),
      recording:
        call.recorder && call.recordingId
          ? { id: call.recordingId, path: recordingPath(this.config, call.recordingId), recorder: call.recorder }
          : null,
      agentEnded: () => ({ reason: 'hangup' }),
      keepsRecording: (ending) => !('broke' in ending),
    });
    call.hosted = hosted;
    call.over = hosted.ending
      .then((ending) => hosted.end(ending))
      .finally(async () => {
        await this.freeSlot(roomId);
        this.live.delete(roomId);
      });
    await hosted.converse(peer, startedAt);
  }

  private async answerHere(call: LiveCall, offerSdp: string): Promise<string> {
    const roomId = call.room.room_id;
    const recordingId = newId('rec');
    try {
      call.recorder = await DualChannelRecorder.create(recordingPath(this.config, recordingId), {
        sampleRate: recordingRateFor(offerSdp),
      });
    } catch (err) {
      throw new AgentSetupFailed(
        `The call's recording could not be started: ${err instanceof Error ? err.message : String(err)}`,
        'recording_failed',
      );
    }
    call.recordingId = recordingId;
    call.recorder.onFailed((err) =>
      this.breakCall(roomId, 'recording_failed', `Recording the call failed: ${err.message}`),
    );
    // The WebRTC stack (werift) is loaded with the first call a room's agent answers (decision 176).
    const { AgentPeer } = await import('../infra/agent-peer.js');
    call.peer = await AgentPeer.answer({
      offerSdp,
      greeting: agentGreeting(),
      recorder: call.recorder,
      iceHosts: this.iceHosts(),
      candidates: this.candidatePolicy(),
      onDisconnected: () => this.logger.log(`room ${roomId}: the participant's connection closed`),
      onMediaError: (err) => this.breakCall(roomId, 'media_error', `The call's media failed: ${err.message}`),
      onFrameSent: (deviationMs) => this.frameJitter.observe(deviationMs),
    });
    return call.peer.answerSdp;
  }

  /**
   * A call held here broke (a socket or a recording file failed): the room fails with `code` (a
   * joined room; one still being joined is failed by the join's own refusal), the peer is closed and
   * the partial recording dropped. Shares `ending` with end(): a call ends once, one way or the other.
   */
  private breakCall(roomId: string, code: CallBreak, message: string): void {
    const call = this.live.get(roomId);
    if (!call || isEnding(call)) return;
    this.logger.error(`room ${roomId}: ${message}`);
    if (call.hosted) {
      void call.hosted.end({ broke: code, message });
      return;
    }
    call.ending = (async () => {
      try {
        await failRoom(this.commands, call.tenantId, roomId, code, message);
      } finally {
        await this.release(call).catch(() => undefined);
        this.live.delete(roomId);
      }
    })();
  }

  private candidatePolicy(): CandidatePolicy {
    return candidatePolicyFor(this.config.host, settingsOf(this.config, roomsSettings).mediaAllowPrivateAddresses);
  }

  private iceHosts(): string[] | null {
    const { roomIceHosts } = settingsOf(this.config, roomsSettings);
    if (roomIceHosts) return roomIceHosts;
    const host = this.config.host;
    return host === '127.0.0.1' || host === 'localhost' || host === '::1' ? ['127.0.0.1'] : null;
  }

  private contextOf(call: LiveCall): RoomContext {
    const room = call.room;
    return {
      room_id: room.room_id,
      session_id: room.session_id,
      tenant_id: call.tenantId,
      participant_id: room.participant_id,
      client_reference_id: room.client_reference_id,
      agent_config: room.agent_config,
      voice_id: room.voice_id,
    };
  }

  /**
   * Ends a call held here, once: a hosted call by its host (the room completes with `reason`, a no-op
   * when it is completed already); a call through the media gateway here: the room completes, the
   * gateway is told.
   */
  private end(roomId: string, reason?: EndReason, at?: Date): Promise<void> {
    const call = this.live.get(roomId);
    if (!call) return Promise.resolve();
    if (call.hosted) {
      void call.hosted.end({ reason, at });
      return call.over ?? Promise.resolve();
    }
    call.ending ??= (async () => {
      try {
        if (reason)
          await this.commands.execute(new RoomAction(call.tenantId, roomId, { type: 'complete', reason, at }));
        await call.peer?.close();
        if (!call.peer) await this.hangUpAtGateway(call);
        await call.recorder?.discard();
      } catch (err) {
        this.logger.error(`room ${roomId}: ending the call failed: ${errorMessage(err)}`);
      } finally {
        await this.freeSlot(roomId);
        this.live.delete(roomId);
      }
    })();
    return call.ending;
  }

  /** Best effort: the gateway ends its side of a call the platform ended (its own rules end it otherwise). */
  private async hangUpAtGateway(call: LiveCall): Promise<void> {
    const gateway = this.gateway;
    if (!gateway) return;
    await hangUpAtGateway(gateway, this.contextOf(call)).catch((err: unknown) =>
      this.logger.warn(`room ${call.room.room_id}: telling the gateway failed: ${String(err)}`),
    );
  }

  /** Closes the peer, drops the recording, frees the slot: a call that never started, or broke. */
  private async release(call: LiveCall): Promise<void> {
    await call.peer?.close();
    await call.recorder?.discard();
    await this.freeSlot(call.room.room_id);
  }

  private givePlaceBack(roomId: string): void {
    this.places.get(roomId)?.release();
    this.places.delete(roomId);
  }

  /** The call is over here: its place among the conversations and its live-room slot are given back. */
  private async freeSlot(roomId: string): Promise<void> {
    this.givePlaceBack(roomId);
    await this.slots
      .free(roomId)
      .catch((err: unknown) =>
        this.logger.warn(`room ${roomId}: freeing its live-room slot failed: ${errorMessage(err)}`),
      );
  }

  /** Every second: calls whose participant went silent for 30 s or that reached the maximum end here. */
  private async check(): Promise<void> {
    const now = this.clock.now().getTime();
    const beats: { dedupeKey: string; dueAt: Date }[] = [];
    for (const [roomId, call] of this.live) {
      if (isEnding(call) || call.joinedAt === 0) continue;
      if (now - call.joinedAt >= MAX_ROOM_CALL_MS) void this.end(roomId, 'max_duration');
      // Silence counts from the last audio, or from the join when none came since (the peer exists a
      // moment before the join is stored).
      else if (call.peer && now - Math.max(call.peer.lastMediaAt, call.joinedAt) >= CONNECTION_LOST_MS)
        void this.end(roomId, 'connection_lost', new Date(Math.max(call.peer.lastMediaAt, call.joinedAt)));
      else if (call.peer)
        beats.push({
          dedupeKey: mediaWatchKey(roomId),
          dueAt: new Date(call.peer.lastMediaAt + CONNECTION_LOST_MS + WATCH_SLACK_MS),
        });
    }
    if (beats.length === 0 || now - this.lastHeartbeat < HEARTBEAT_MS) return;
    this.lastHeartbeat = now;
    await this.timers.postpone(beats).catch((err: unknown) => this.logger.warn(`room heartbeat: ${String(err)}`));
  }

  /**
   * The fallback watch of a joined room. Held here: the local check decides (the watch only moves on).
   * Through the gateway: only the maximum length. Held nowhere (its instance is gone): the call is
   * ended as lost, as of the last heartbeat.
   */
  private async watch(timer: DueTimer<RoomTimerPayload>): Promise<TimerOutcome<RoomTimerPayload>> {
    const { tenant_id: tenantId, room_id: roomId } = timer.payload;
    const state = await this.executor.state(roomStream(roomId), roomDecider);
    if (state.status !== 'joined' || state.joinedAt === null) return;
    const deadline = Date.parse(state.joinedAt) + MAX_ROOM_CALL_MS;
    const now = this.clock.now().getTime();
    const call = this.live.get(roomId);
    if (call?.peer) {
      const next = Math.min(deadline, call.peer.lastMediaAt + CONNECTION_LOST_MS + WATCH_SLACK_MS);
      return { next: { dueAt: new Date(Math.max(next, now + CHECK_MS)), payload: timer.payload } };
    }
    if (this.gateway && now < deadline) return { next: { dueAt: new Date(deadline), payload: timer.payload } };
    const reason: EndReason = now >= deadline ? 'max_duration' : 'connection_lost';
    const lostAt = new Date(timer.dueAt.getTime() - CONNECTION_LOST_MS - WATCH_SLACK_MS);
    await this.commands.execute(
      new RoomAction(tenantId, roomId, {
        type: 'complete',
        reason,
        at: reason === 'max_duration' ? undefined : lostAt,
      }),
    );
  }
}
