import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { sessionsSettings } from '../sessions.config';
import { BillingHolds } from './billing-holds';
import { CallDialer } from './call-dialer';
import { ChangeDnc } from '../../dnc';
import { BLOB_STORE, type BlobStore } from '../../infra/blobs/blob-store.port';
import { CLOCK, Clock } from '../../kernel/clock';
import type { SecretBox } from '../../kernel/secret-box';
import { SECRET_BOX } from '../../infra/secret-box.provider';
import {
  TimersService,
  type DueTimer,
  type TimerContext,
  type TimerOutcome,
  type TimerPark,
} from '../../runtime/timers/timers.service';
import { scriptFor, type ScriptStep } from '../domain/test-pool.scenarios';
import { dispatchToMediaGateway } from '../infra/media-gateway.client';
import { removeRecording, writeSimulatedRecording } from '../infra/recording-files';
import { RecordingLinks } from '../infra/recording-links';
import { CARRIER_HOLD_REASON, CREDITS_HOLD_REASON } from '../domain/session.state';
import { SessionActionCommand } from './session.commands';
import {
  MAX_CALL_SECONDS,
  type DispatchPayload,
  type SessionTimerPayload,
  SimStepPayload,
  simStepTimer,
  TIMER,
  watchdogKey,
  watchdogTimer,
} from './session-reactor.processor';

/**
 * How far ahead the simulator waits in memory for a call's next step instead of releasing its row
 * (the timer service also stops any wait past a third of the 30 s lease from the claim).
 */
export const SIM_CHAIN_HORIZON_MS = 2_000;

/**
 * How long after its watchdog (MAX_CALL_SECONDS, scaled, from its placement) a held production call's
 * timer stays parked at most: by then the watchdog has ended the call, and the timer is dropped.
 */
const HOLD_SLACK_MS = 60_000;

/** The latest a production call placed at `base` may wait for a hold to lift. */
const holdBound = (base: number, scale: number): number =>
  base + Math.round(MAX_CALL_SECONDS * 1000 * scale) + HOLD_SLACK_MS;

/** The work behind each session timer; every handler is safe to run twice. */
@Injectable()
export class SessionTimers {
  private readonly logger = new Logger('Sessions');

  constructor(
    private readonly timers: TimersService,
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly links: RecordingLinks,
    private readonly holds: BillingHolds,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    /** The telephony context's, present when it is loaded; used only when SIP_TRUNK_URI is the dispatch path. */
    @Optional() @Inject(CallDialer) private readonly dialer: CallDialer | null = null,
  ) {}

  register(): void {
    this.timers.register(TIMER.simStep, (t, context) => this.simStep(t, context));
    this.timers.register(TIMER.watchdog, (t) => this.action(t, { type: 'watchdog' }));
    this.timers.register(TIMER.purge, (t) => this.purge(t));
    this.timers.register(TIMER.dncAdd, (t) => this.addOptOut(t));
    // Dispatches go where a production call can be placed from: the media gateway, or this process's
    // SIP user agent. Elsewhere (an API instance next to media processes) they are left to the others.
    if (this.config.mediaGatewayUrl !== null || this.dialer !== null)
      this.timers.register(TIMER.gatewayDispatch, (t) => this.dispatchToGateway(t));
  }

  private async action(timer: DueTimer<SessionTimerPayload>, action: SessionActionCommand['action']): Promise<void> {
    const { tenant_id, session_id } = timer.payload;
    if (tenant_id === null) throw new Error(`session ${session_id}: its timer names no tenant`);
    await this.commands.execute(new SessionActionCommand(tenant_id, session_id, action));
  }

  /**
   * The simulator: plays the call's scripted steps one after another, from the step in the row.
   * While the next step is due within SIM_CHAIN_HORIZON_MS it waits for it in memory and plays it
   * under the same claimed row (a whole test call at SIM_TIME_SCALE=0.001 is one claim); otherwise
   * the row itself is moved to that step and released. A crash mid-chain leaves the row at the step
   * it was claimed with, under its lease; it then runs again from there, and the steps already
   * played are no-ops (the decider ignores a signal whose seq is not above the session's; the
   * recording file is written again, the same). See
   * docs/decisions/0014-simulated-calls-play-one-step-after-another.md and
   * 0025-timers-in-batches-and-a-simulated-calls-steps-chained-in.md.
   */
  private async simStep(timer: DueTimer<SimStepPayload>, context: TimerContext): Promise<TimerOutcome<SimStepPayload>> {
    let p = timer.payload;
    if (p.production && p.seq === 1) {
      const now = this.clock.now();
      const bound = holdBound(p.base, p.scale);
      const parked = await this.parkIfHeld(p.tenant_id, p.session_id, bound, { ...p, held: true });
      if (parked !== null) return parked;
      // Released: the call goes out now, its steps timed from now, and its watchdog from now too.
      if (p.held) {
        await this.released(p.tenant_id, p.session_id);
        p = { ...p, base: now.getTime(), held: false };
        await this.timers.cancel(watchdogKey(p.session_id));
        await this.timers.schedule(watchdogTimer(p.tenant_id, p.session_id, now.getTime(), p.scale));
      }
    }
    const script = scriptFor(p.script ?? p.to);
    for (let seq = p.seq; ; seq++) {
      const step = script[seq - 1];
      if (step) await this.playStep(timer, p.session_id, seq, step);
      const next = simStepTimer({
        tenantId: p.tenant_id,
        sessionId: p.session_id,
        to: p.to,
        ...(p.script ? { script: p.script } : {}),
        base: p.base,
        seq: seq + 1,
        scale: p.scale,
        production: p.production ?? false,
      });
      if (!next) return; // the script has ended: the row is deleted with its batch
      if (!(await context.waitUntil(next.dueAt, SIM_CHAIN_HORIZON_MS)))
        return { next: { dueAt: next.dueAt, payload: next.payload } };
    }
  }

  private async playStep(
    timer: DueTimer<SessionTimerPayload>,
    sessionId: string,
    seq: number,
    step: ScriptStep,
  ): Promise<void> {
    if ('signal' in step) return this.action(timer, { type: 'signal', seq, signal: step.signal });
    const recordingId = this.links.recordingIdFor(sessionId);
    await writeSimulatedRecording(this.blobs, recordingId, step.record.duration_seconds);
    await this.action(timer, {
      type: 'signal',
      seq,
      signal: {
        kind: 'recording_ready',
        recording_id: recordingId,
        duration_seconds: step.record.duration_seconds,
        channels: 'dual',
      },
    });
  }

  private async purge(timer: DueTimer<SessionTimerPayload & { recording_id: string }>): Promise<void> {
    const { recording_id } = timer.payload;
    // Gone from the shared store first, for every instance; only then is it recorded as purged. And
    // removed again after: a start moving an older version's file into the store (LegacyRecordings)
    // that read the state before the event put it back
    // (docs/decisions/0065-recordings-and-voice-samples-live-in-one-blob-store-that.md).
    await removeRecording(this.blobs, this.config, recording_id);
    await this.action(timer, { type: 'purge_recording' });
    await removeRecording(this.blobs, this.config, recording_id);
  }

  private async addOptOut(timer: DueTimer<SessionTimerPayload & { phone_number: string | null }>): Promise<void> {
    const { tenant_id, session_id, phone_number } = timer.payload;
    if (!phone_number || tenant_id === null) return;
    await this.commands.execute(
      new ChangeDnc(tenant_id, { type: 'add', phoneNumber: phone_number, source: 'opt_out', sessionId: session_id }),
    );
  }

  /** The dispatch with a private prompt opened into `agent_config.prompt` (the sealed form is not sent). */
  private opened(payload: DispatchPayload): DispatchPayload {
    const request = payload.request;
    if (request.sealed_prompt === undefined) return payload;
    const { sealed_prompt: sealed, ...rest } = request;
    return { ...payload, request: { ...rest, agent_config: { ...rest.agent_config, prompt: this.box.open(sealed) } } };
  }

  /**
   * While a hold (a depleted balance) is on the tenant, the call's timer is parked on it until the
   * hold is released (credits' `BillingHolds`; no polling meanwhile) or `bound`, and the session says why it
   * waits (`session.dispatch_held`: its `hold_reason`); at `bound`, still held, the timer is dropped
   * (the call's watchdog has ended it, with the hold's reason). Null when the call may go out now.
   */
  private async parkIfHeld(
    tenantId: string | null,
    sessionId: string,
    bound: number,
    payload: object,
  ): Promise<{ park: TimerPark } | undefined | null> {
    if (tenantId === null) return null;
    const parked = await this.holds.park(tenantId, new Date(bound), payload);
    if (!parked) return null;
    if (this.clock.now().getTime() >= bound) {
      this.logger.warn(`a held call of tenant ${tenantId} waited past its bound: its timer is dropped`);
      return undefined;
    }
    // Usually a no-op: a call placed while held was stored held.
    await this.commands.execute(
      new SessionActionCommand(tenantId, sessionId, { type: 'hold', reason: CREDITS_HOLD_REASON }),
    );
    return { park: parked.park };
  }

  /** A held call goes out: its session no longer says it waits (a no-op when it did not). */
  private async released(tenantId: string | null, sessionId: string): Promise<void> {
    if (tenantId !== null)
      await this.commands.execute(new SessionActionCommand(tenantId, sessionId, { type: 'release' }));
  }

  /**
   * Production calls go to MEDIA_GATEWAY_URL, signed like a webhook, or, without one and with
   * SIP_TRUNK_URI, over SIP through the telephony context's `CallDialer`, once no hold is on the
   * tenant; a failure is retried by the timer. A SIP call the carrier's budget has no room for yet is
   * held (`carrier_limit`) and tried again when the budget says (docs/telephony.md).
   */
  private async dispatchToGateway(timer: DueTimer<DispatchPayload>): Promise<TimerOutcome<DispatchPayload>> {
    const url = this.config.mediaGatewayUrl;
    const secret = this.config.mediaGatewaySecret;
    const sip = url === null && this.config.sipTrunkUri !== null && this.dialer !== null;
    if ((!url || !secret) && !sip) return;
    const { held_until: heldUntil, carrier_held: carrierHeld, held_for: heldFor, ...request } = timer.payload;
    const bound =
      heldUntil ?? holdBound(this.clock.now().getTime(), settingsOf(this.config, sessionsSettings).simTimeScale);
    const parked = await this.parkIfHeld(request.tenant_id, request.session_id, bound, {
      ...request,
      held_until: bound,
    });
    if (parked !== null) return parked;
    if (sip && this.dialer) {
      if (request.tenant_id === null) return;
      const dialled = await this.dialer.dial(this.opened(request).request, request.tenant_id);
      if (!dialled.placed) {
        // Held once per reason: a call that waited on the trunk and now waits on its tenant says so.
        const reason = dialled.holdReason;
        if ((heldFor ?? (carrierHeld ? CARRIER_HOLD_REASON : undefined)) !== reason)
          await this.commands.execute(
            new SessionActionCommand(request.tenant_id, request.session_id, { type: 'hold', reason }),
          );
        return {
          next: { dueAt: dialled.retryAt, payload: { ...timer.payload, carrier_held: true, held_for: reason } },
        };
      }
      if (heldUntil !== undefined || carrierHeld) await this.released(request.tenant_id, request.session_id);
      this.logger.log(`dialled ${request.session_id} over SIP`);
      return;
    }
    if (heldUntil !== undefined) await this.released(request.tenant_id, request.session_id);
    if (!url || !secret) return;
    await dispatchToMediaGateway({ url, secret }, timer.timerId, this.opened(request));
    this.logger.log(`dispatched ${request.session_id} to the media gateway`);
  }
}
