/**
 * The platform's phone calls over SIP (docs/telephony.md): production calls placed for sessions
 * (through sessions' `CallDialer`: sip-call-dialer.ts), and calls coming in to a tenant's verified
 * number. Each answered call is run here, in the process that holds its RTP:
 * - the session is told `answered` at the 200 (session.started);
 * - the agent's conversation runs on the call's media, from the moment the other party's audio
 *   flows (not at the 200: a greeting played into a line not yet open is lost);
 * - both directions are recorded (dual-channel WAV, agent left) and reported once the call is over;
 * - on an outbound call the agent holds its greeting until the answering-machine detector
 *   (answering-machine-detector.ts) decided: a person (or no telling) is greeted; a machine is left
 *   the agent's `voicemail.message` after its beep, or hung up on at once without one (`voicemail`);
 * - the agent's transfer is a REFER to its transfer_number while the conversation waits: taken, the
 *   call ends `transferred`; refused, failed or unanswered in 30 s, the session hears
 *   `session.transfer_failed` and the caller stays with the agent. A warm one (warm-transfer.ts)
 *   calls the number, briefs whoever answers and bridges the caller to them: the session ends
 *   `transferred` when the bridged call does, and its recording holds it;
 * - the agent ending the conversation hangs up; the other party's BYE ends the conversation. Either
 *   way the session ends, then gets its recording.
 * A call not answered ends its session busy, no_answer or failed `sip_<code>` (call-outcomes.ts).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import {
  CallHost,
  type ConversationAgent,
  ConversationCapacity,
  type ConversationSlot,
  type TransferOutcome,
  type WarmTransfer,
} from '../../conversations';
import { errorMessage } from '../../kernel/errors';
import { DualChannelRecorder } from '../../kernel/media/dual-channel-recorder';
import { idFromSeed, newId } from '../../kernel/ids';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { GetNumberOwner, type NumberOwner, ReceiveInboundCall } from '../../numbers';
import { GetTenant } from '../../tenants';
import type { Worker } from '../../runtime/workers/polling-worker';
import { AGENT_DEFAULTS, recordingPath, type SessionPlacedData, sessionSignals } from '../../sessions';
import { type CallEnding, endSignal, unansweredSignal, type UnansweredOutcome } from '../domain/call-outcomes';
import { CARRIER_BUDGET, type CarrierBudgetPort } from '../domain/carrier-budget.port';
import type { PhoneMedia } from '../infra/rtp/rtp-call-media';
import type { OutboundCall } from '../infra/sip/outbound-call';
import type { SipCall } from '../infra/sip/sip-call';
import {
  type IncomingInvite,
  type InviteDecision,
  type SipUserAgent,
  TRANSFER_TIMEOUT_MS,
} from '../infra/sip/sip-user-agent';
import { TelephonyMetrics } from '../infra/telephony-metrics';
import { screenCallee } from './callee-screening';
import type { LiveCall } from './live-call';
import { warmTransfer } from './warm-transfer';
import { telephonySettings } from '../telephony.config';
import { SIP_USER_AGENT } from '../telephony.tokens';

/**
 * A worker (runtime/workers): started with the others, and stopped before any shutdown hook closes
 * the database pool, so that the calls it ends are still reported to their sessions.
 */
@Injectable()
export class PhoneCalls implements Worker {
  readonly name = 'phone-calls';
  private readonly logger = new Logger('PhoneCalls');
  private readonly live = new Map<string, LiveCall>();

  constructor(
    @Inject(SIP_USER_AGENT) private readonly ua: SipUserAgent<PhoneMedia> | null,
    @Inject(CARRIER_BUDGET) private readonly budget: CarrierBudgetPort,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly host: CallHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: TelephonyMetrics,
    private readonly capacity: ConversationCapacity,
  ) {}

  /** Inbound calls are answered from now on (the user agent refuses every INVITE with 404 before). */
  start(): void {
    this.ua?.onInvite((invite) => this.incoming(invite));
    // A proxy's health probe (kamailio's dispatcher) hears 503 while this instance takes no new call.
    this.ua?.onOptions(() => this.capacity.view().admitting);
    // The watchdog already ended these calls' sessions (media_lost): the line goes down here too.
    this.budget.onSlotLost((sessionId) => {
      const live = this.live.get(sessionId);
      if (live) void this.end(live, { by: 'lost' });
    });
  }

  /** Ends every call held here (the session fails with `media_lost`) before the user agent and database go. */
  async stop(): Promise<void> {
    await Promise.all([...this.live.values()].map((c) => this.end(c, { by: 'shutdown' })));
  }

  /** Whether the session's call is held by this process (a second dispatch of it is then a no-op). */
  holds(sessionId: string): boolean {
    return this.live.has(sessionId);
  }

  /**
   * Dials the session's callee through the trunk and runs the call; not awaited by the dispatch
   * (the call lives here, its outcome goes to the session as signals). The budget place it was
   * granted, and its place among the conversations, are given back when it ends, whichever way.
   */
  placeOutbound(tenantId: string, request: SessionPlacedData, slot: ConversationSlot): void {
    const live = this.track(
      tenantId,
      request.session_id,
      slot,
      { ...request.agent_config, voice_id: request.voice_id },
      true,
      request.from_number ?? null,
    );
    void this.dial(live, request).catch((err: unknown) => {
      this.logger.error(`session ${live.sessionId}: the call failed: ${errorMessage(err)}`);
      void this.end(live, { by: 'error' });
    });
  }

  private track(
    tenantId: string,
    sessionId: string,
    slot: ConversationSlot,
    agent: ConversationAgent,
    outbound: boolean,
    ownNumber: string | null,
  ): LiveCall {
    const live: LiveCall = {
      tenantId,
      sessionId,
      agent,
      outbound,
      call: null,
      placed: null,
      hosted: null,
      ownNumber,
      answeredAt: null,
      transferring: false,
      bridge: null,
      over: null,
      slot,
      created: Promise.resolve(true),
    };
    this.live.set(sessionId, live);
    return live;
  }

  private async dial(live: LiveCall, request: SessionPlacedData): Promise<void> {
    const placed = this.trunkCall(request.to_number ?? '', request.from_number ?? 'anonymous');
    if (!placed) throw new Error('SIP_TRUNK_URI is not set in this process');
    const call = await placed;
    live.call = call.call;
    live.placed = call;
    const outcome = await call.outcome;
    if (outcome.kind === 'answered') await this.answered(live, outcome.call);
    else await this.unanswered(live, outcome);
  }

  /**
   * An INVITE: over this instance's capacity (conversations' ConversationCapacity) it is 503 with
   * Retry-After, whatever its number. Then a number of ours: its active owner's agent answers; any
   * other number is 404, a suspended tenant's 403, over SIP_MAX_CALLS 503, over the tenant's
   * TENANT_MAX_CALLS 486; either way no session is made.
   */
  private async incoming(invite: IncomingInvite<PhoneMedia>): Promise<InviteDecision<PhoneMedia>> {
    // This instance's capacity first: a refused INVITE costs no lookup, so that a flood of them does
    // not load the event loop the admitted calls share (docs/capacity.md). A full instance answers 503
    // even for a number it does not have: a proxy tries another instance, which knows.
    const place = this.capacity.request('phone_inbound');
    if (!place.slot) {
      this.metrics.inboundRefused('capacity');
      return { reject: 503, retryAfterSeconds: place.retryAfterSeconds };
    }
    const routed = await this.route(invite).catch((err: unknown) => {
      place.slot?.release();
      throw err;
    });
    if ('reject' in routed) place.slot.release();
    return 'reject' in routed ? routed : this.admitted(invite, routed, place.slot);
  }

  /** The number's active owner and the session id of the call, or why it is refused (no place taken). */
  private async route(
    invite: IncomingInvite<PhoneMedia>,
  ): Promise<{ reject: 404 | 403 | 482 } | { owner: NumberOwner; sessionId: string }> {
    const to = normalisePhoneNumber(invite.to);
    const owner = to ? await this.queries.execute(new GetNumberOwner(to)) : null;
    if (!owner) return { reject: 404 };
    // A suspended account takes no call (its session could not be made): refused before any answer.
    const tenant = await this.queries.execute(new GetTenant(owner.tenantId));
    if (tenant?.status === 'suspended') return { reject: 403 };
    // The session id the numbers context gives this Call-ID (numbers.commands.ts): the call's place in
    // the limits is taken under it before the session exists, so that a refused call makes none.
    const sessionId = idFromSeed('ses', `inbound:${owner.tenantId}:${invite.call.callId}`);
    if (this.live.has(sessionId)) return { reject: 482 }; // the same Call-ID again: a loop
    return { owner, sessionId };
  }

  /** A routed INVITE with its place: the carrier budget, then the answer while the session is made. */
  private async admitted(
    invite: IncomingInvite<PhoneMedia>,
    { owner, sessionId }: { owner: NumberOwner; sessionId: string },
    slot: ConversationSlot,
  ): Promise<InviteDecision<PhoneMedia>> {
    const admission = await this.budget.admitInbound({ sessionId, tenantId: owner.tenantId }).catch((err: unknown) => {
      slot.release();
      throw err;
    });
    if (!admission.admitted) {
      slot.release();
      this.metrics.inboundRefused(admission.limit);
      return admission.limit === 'trunk' ? { reject: 503, retryAfterSeconds: 5 } : { reject: 486 };
    }
    // The caller as the trunk gives it: E.164 when it parses, else its digits as sent, else anonymous.
    const from = normalisePhoneNumber(invite.from) ?? (/^\+?\d{3,20}$/.test(invite.from) ? invite.from : 'anonymous');
    const live = this.track(owner.tenantId, sessionId, slot, owner.agentConfig, false, owner.phoneNumber);
    // The session is made while the call is answered: its creation does not hold the 200 back
    // (docs/capacity.md, "Answer fast"). Its id is the Call-ID's, so a retried INVITE makes none twice;
    // the agent is the one the session stores (the number's, read from its stream).
    live.created = this.commands
      .execute(
        new ReceiveInboundCall(owner.tenantId, owner.phoneNumberId, owner.phoneNumber, from, null, invite.call.callId),
      )
      .then(({ agentConfig }) => {
        live.agent = agentConfig;
        return true;
      })
      .catch((err: unknown) => {
        this.logger.error(`session ${sessionId}: the inbound call's session could not be made: ${errorMessage(err)}`);
        return false;
      });
    let answered = false;
    // Never answered after all (the caller cancelled while its media was bound, or no port was free):
    // the session ends unanswered and its place is given back.
    void invite.call.ended.then(() => {
      if (!answered) void this.unanswered(live, { kind: 'no_answer', code: 487 });
    });
    // The user agent tells once the 200 is sent with the call's media (it flows from the ACK).
    return {
      answered: () => {
        answered = true;
        void this.answered(live, invite.call).catch((err: unknown) => {
          this.logger.error(`session ${sessionId}: the inbound call failed: ${errorMessage(err)}`);
          void this.end(live, { by: 'error' });
        });
      },
    };
  }

  /** A call that was never answered: its session ends busy, no answer or failed, and its place is given back. */
  private unanswered(live: LiveCall, outcome: UnansweredOutcome): Promise<void> {
    return this.over(live, async () => {
      if (await live.created)
        await sessionSignals(this.commands, live.tenantId, live.sessionId).hungUp(unansweredSignal(outcome));
    });
  }

  /**
   * The call is up: CallHost carries it (the session starts, the recording begins), an outbound call
   * is screened for an answering machine, and the agent talks once the other party's audio flows (a
   * greeting played into a line not yet open is lost).
   */
  private async answered(live: LiveCall, call: SipCall<PhoneMedia>): Promise<void> {
    live.call = call;
    // Given up while it was answered (a CANCEL that crossed the 200): the session has ended already.
    if (live.over) return this.ua?.hangUp(call);
    // Its session could not be made: nothing to carry the call for, it goes down (BYE).
    if (!(await live.created)) return this.over(live, () => this.hangUp(live, call, { by: 'error' }));
    if (live.over) return this.ua?.hangUp(call);
    const answeredAt = new Date();
    live.answeredAt = answeredAt.getTime();
    const recordingId = newId('rec');
    const path = recordingPath(this.config, recordingId);
    let recorder: DualChannelRecorder | null = null;
    try {
      recorder = await DualChannelRecorder.create(path, { sampleRate: call.media.sampleRate });
      call.media.record(recorder);
    } catch (err) {
      this.logger.warn(`session ${live.sessionId}: the call is not recorded: ${errorMessage(err)}`);
      await recorder?.discard();
      recorder = null;
    }
    // Ended while the recorder was opened (a shutdown, a lost slot): the line goes down, nothing is hosted.
    if (live.over) {
      await recorder?.discard();
      return this.hangUp(live, call, { by: 'shutdown' });
    }
    const countEnd = this.metrics.callAnswered(call.media, live.outbound ? 'outbound' : 'inbound');
    const hosted = this.host.open<CallEnding>({
      tenantId: live.tenantId,
      sessionId: live.sessionId,
      agent: live.agent,
      line: {
        hangUp: async (ending) => {
          countEnd(ending.by);
          await this.hangUp(live, call, ending);
        },
        transfer: (number, warm) =>
          warm ? this.warmTransfer(live, call, number, warm) : this.transfer(live, call, number),
      },
      sink: this.host.toSession(live.tenantId, live.sessionId, endSignal),
      recording: recorder ? { id: recordingId, path, recorder } : null,
      agentEnded: (reason) =>
        reason === 'message_left' ? { by: 'voicemail', messageLeft: true } : { by: 'agent', reason },
    });
    live.hosted = hosted;
    // However it ends (the agent, the other party, the medium, a shutdown), its place is given back after.
    void this.over(live, () => hosted.ending.then((ending) => hosted.end(ending)));
    // The promise, not a listener: a BYE that came while the recorder was opened still ends the call.
    // The line going down during a transfer (our BYE once the target answered, or the other party's)
    // is the caller gone to the target: the call ends `transferred`.
    void call.ended.then(({ by }) =>
      hosted.end(
        live.transferring && (by === 'remote' || by === 'local')
          ? { by: 'agent', reason: 'transferred' }
          : { by: by === 'error' ? 'lost' : by === 'unacknowledged' ? 'unacknowledged' : 'remote' },
      ),
    );
    // What the line sends back is for the agent's conversation: its own echo cancelled, echo and key tones masked.
    call.media.listen();
    const flowing = await Promise.race([call.media.mediaFlowing().then(() => true), call.ended.then(() => false)]);
    if (!flowing || hosted.isEnding) return;
    let voicemailMessage: string | undefined;
    if (live.outbound && live.agent.voicemail?.detect !== false) {
      const screened = await screenCallee(call);
      if (!screened || hosted.isEnding) return;
      // Stored on the session (`amd`) after its answer, before anything the call reports next (its
      // seq is below theirs: it would be dropped after them).
      const amd = { result: screened.result, decided_after_ms: Math.round(screened.decidedAfterMs) };
      await hosted.answerStored
        .then(() => sessionSignals(this.commands, live.tenantId, live.sessionId).screened(amd))
        .catch((err: unknown) =>
          this.logger.warn(`session ${live.sessionId}: who answered was not stored: ${errorMessage(err)}`),
        );
      if (hosted.isEnding) return;
      if (screened.result === 'machine') {
        voicemailMessage = live.agent.voicemail?.message?.trim() || undefined;
        if (!voicemailMessage) return void hosted.end({ by: 'voicemail' });
        if (!(await screened.cue) || hosted.isEnding) return;
      }
    }
    await hosted.converse(call.media, answeredAt, voicemailMessage ? { voicemailMessage } : {});
  }

  /**
   * Ends a call held here, once: an answered one by its host; one not hosted (yet) here: a ringing one
   * is given up (CANCEL), one being answered hung up (BYE), and its session ended. Resolves once its
   * place in the budget is given back (stop() waits for that before the database goes).
   */
  private end(live: LiveCall, ending: CallEnding): Promise<void> {
    // A bridged call (a warm transfer) is taken down whole: its host's end waits for the bridge.
    void live.bridge?.cut();
    if (live.hosted) {
      void live.hosted.end(ending);
      return live.over ?? Promise.resolve();
    }
    return this.over(live, async () => {
      const call = live.call;
      if (call) await this.hangUp(live, call, ending);
      else if (live.placed) await live.placed.hangUp();
      if (await live.created)
        await sessionSignals(this.commands, live.tenantId, live.sessionId).hungUp(endSignal(ending));
    });
  }

  /** Runs the call's last steps once, then forgets it and gives its place in the budget back. */
  private over(live: LiveCall, last: () => Promise<void>): Promise<void> {
    live.over ??= (async () => {
      try {
        await last();
      } catch (err) {
        this.logger.error(`session ${live.sessionId}: ending the call failed: ${errorMessage(err)}`);
      } finally {
        this.live.delete(live.sessionId);
        live.slot.release();
        await this.budget
          .release(live.sessionId)
          .catch((err: unknown) =>
            this.logger.warn(`session ${live.sessionId}: releasing its budget failed: ${errorMessage(err)}`),
          );
      }
    })();
    return live.over;
  }

  /**
   * The agent's transfer: a REFER to `number` (the user agent hangs up once the target answered).
   * Refused (the REFER answered 3xx-6xx), failed (the NOTIFY's sipfrag) or no final word in 30 s:
   * the conversation hears why, and goes on.
   */
  private async transfer(live: LiveCall, call: SipCall<PhoneMedia>, number: string): Promise<TransferOutcome> {
    if (!this.ua) return { ok: false, reason: 'not_supported', sip_code: null };
    // Stays set once the transfer went through: the BYE that follows is the transfer's, not a hang-up.
    live.transferring = true;
    const result = await this.ua.transfer(call, number).catch((err: unknown) => {
      live.transferring = false;
      throw err;
    });
    if (result.ok) return { ok: true };
    live.transferring = false;
    this.logger.warn(`session ${live.sessionId}: the transfer did not go through (${result.stage} ${result.code})`);
    const reason = result.stage === 'refer' ? 'refused' : result.stage === 'notify' ? 'target_failed' : 'no_answer';
    return { ok: false, reason, sip_code: result.code };
  }

  /**
   * A warm transfer: the agent's transfer_number called, briefed and bridged to the caller
   * (warm-transfer.ts). Bridged, the conversation ends `transferred`; the call goes on until either
   * leg hangs up (or the agent's max duration from the answer), then the session ends.
   */
  private async warmTransfer(
    live: LiveCall,
    call: SipCall<PhoneMedia>,
    number: string,
    warm: WarmTransfer,
  ): Promise<TransferOutcome> {
    const ua = this.ua;
    if (!ua || !this.config.sipTrunkUri) return { ok: false, reason: 'not_supported', sip_code: null };
    const maxMs = (live.agent.max_duration_seconds ?? AGENT_DEFAULTS.max_duration_seconds) * 1000;
    const { outcome, bridge } = await warmTransfer(
      {
        call: ({ to, from }) =>
          this.trunkCall(to, from, TRANSFER_TIMEOUT_MS) ?? Promise.reject(new Error('SIP_TRUNK_URI is not set')),
        hangUp: (leg) => ua.hangUp(leg),
        warn: (message) => this.logger.warn(`session ${live.sessionId}: ${message}`),
      },
      call,
      {
        number,
        from: live.ownNumber ?? 'anonymous',
        warm,
        deadline: (live.answeredAt ?? Date.now()) + maxMs,
      },
    );
    if (!outcome.ok) {
      this.logger.warn(
        `session ${live.sessionId}: the warm transfer did not go through (${outcome.reason} ${outcome.sip_code})`,
      );
      return outcome;
    }
    live.transferring = true;
    live.bridge = bridge;
    // The call is being taken down (a shutdown, a lost slot, during the briefing): the bridge goes with it.
    if (live.hosted?.isEnding) void bridge?.cut();
    return outcome;
  }

  /**
   * A call through the trunk (SIP_TRUNK_URI, with its credentials), ringing at most SIP_RING_TIMEOUT
   * (and `maxRingMs`); null when this process has no user agent or trunk.
   */
  private trunkCall(to: string, from: string, maxRingMs = Infinity): Promise<OutboundCall<PhoneMedia>> | null {
    const trunkUri = this.config.sipTrunkUri;
    if (!this.ua || !trunkUri) return null;
    const settings = settingsOf(this.config, telephonySettings);
    return this.ua.call({
      to,
      from,
      trunkUri,
      ...(settings.username && settings.password ? { username: settings.username, password: settings.password } : {}),
      ringTimeoutMs: Math.min(settings.ringTimeoutMs, maxRingMs),
    });
  }

  /**
   * Our side of the end: a BYE (a CANCEL while still ringing); nothing once the line is down (a
   * transfer taken). A bridged call is left to its two parties: the end waits until one hangs up.
   */
  private async hangUp(live: LiveCall, call: SipCall<PhoneMedia>, ending: CallEnding): Promise<void> {
    void ending;
    if (live.bridge) return live.bridge.over;
    if (!this.ua || call.state === 'ended') return;
    if (call.state !== 'confirmed' && live.placed) return live.placed.hangUp(); // still ringing: CANCEL
    await this.ua.hangUp(call);
  }
}
