/**
 * A warm transfer (agent_config.transfer_mode `warm`, docs/telephony.md "Transfers"): while the
 * caller waits with the agent, the platform calls the transfer number itself through the trunk, the
 * agent briefs whoever answers, then the platform bridges the two calls' media (each leg's audio
 * played into the other). A REFER with `Replaces` would take the platform out of the media path, but
 * needs a trunk that supports it; the bridge works with any, and the caller's recording goes on.
 *
 * Not taken (busy, no answer, refused, the target hanging up during the briefing): the transfer
 * failed as `session.transfer_failed` says, and the caller stays with the agent.
 */
import type { TransferOutcome, WarmTransfer } from '../../conversations';
import { errorMessage } from '../../kernel/errors';
import { resample } from '../../kernel/audio/rate-converter';
import type { UnansweredOutcome } from '../domain/call-outcomes';
import type { PhoneMedia } from '../infra/rtp/rtp-call-media';
import type { CallOptions, OutboundCall } from '../infra/sip/outbound-call';
import type { SipCall } from '../infra/sip/sip-call';

/** How long the answered target may stay silent before the briefing starts anyway (RTP may start late). */
const MEDIA_WAIT_MS = 2_000;
/** Frames one leg's audio may queue for the other before the oldest is dropped (its clock drifting). */
const MAX_QUEUED_FRAMES = 10;

export interface WarmTransferDeps {
  /** Places the target's call (the user agent's `call`, trunk and credentials filled in). */
  call(options: Pick<CallOptions, 'to' | 'from'>): Promise<OutboundCall<PhoneMedia>>;
  hangUp(call: SipCall<PhoneMedia>): Promise<void>;
  warn(message: string): void;
}

/** The two legs bridged: over when either goes down (or `cut`), then the other is hung up. */
export class Bridge {
  readonly over: Promise<void>;
  private stops: (() => void)[] = [];
  private ended = false;
  private finish!: () => void;

  constructor(
    readonly caller: SipCall<PhoneMedia>,
    readonly target: SipCall<PhoneMedia>,
    private readonly deps: Pick<WarmTransferDeps, 'hangUp' | 'warn'>,
    /** When the bridge ends at the latest (epoch ms): the agent's max duration from the answer. */
    deadline: number,
  ) {
    this.over = new Promise((resolve) => (this.finish = resolve));
    // The caller's audio goes to a person now, whole: no echo cancelling or masking meant for the agent.
    caller.media.listen(false);
    this.stops.push(pipe(caller.media, target.media), pipe(target.media, caller.media));
    this.stops.push(relayKeys(caller.media, target.media), relayKeys(target.media, caller.media));
    const limit = setTimeout(() => void this.cut(), Math.max(0, deadline - Date.now()));
    limit.unref();
    this.stops.push(() => clearTimeout(limit));
    void Promise.race([caller.ended, target.ended]).then(() => this.cut());
  }

  /** Ends the bridge: both legs are hung up (the one still up), once. */
  async cut(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      for (const stop of this.stops) stop();
      const up = [this.caller, this.target].filter((leg) => leg.state !== 'ended');
      await Promise.all(
        up.map((leg) =>
          this.deps
            .hangUp(leg)
            .catch((err: unknown) => this.deps.warn(`hanging up a bridged leg failed: ${errorMessage(err)}`)),
        ),
      );
      this.finish();
    }
    return this.over;
  }
}

/**
 * Calls `number`, has the agent brief whoever answers, and bridges `caller` to them. Resolves with
 * the outcome and, when it went through, the bridge (the caller's call is then the target's).
 */
export async function warmTransfer(
  deps: WarmTransferDeps,
  caller: SipCall<PhoneMedia>,
  request: { number: string; from: string; warm: WarmTransfer; deadline: number },
): Promise<{ outcome: TransferOutcome; bridge: Bridge | null }> {
  const failed = (outcome: Exclude<TransferOutcome, { ok: true }>) => ({ outcome, bridge: null });
  let placed: OutboundCall<PhoneMedia>;
  try {
    placed = await deps.call({ to: request.number, from: request.from });
  } catch (err) {
    deps.warn(`the transfer's call could not be placed: ${errorMessage(err)}`);
    return failed({ ok: false, reason: 'target_failed', sip_code: null });
  }
  const callerGone = caller.ended.then(() => null);
  const answer = await Promise.race([placed.outcome, callerGone]);
  if (!answer) {
    await placed.hangUp().catch(() => undefined);
    return failed({ ok: false, reason: 'target_failed', sip_code: null });
  }
  if (answer.kind !== 'answered') return failed(unanswered(answer));
  const target = answer.call;
  const media = target.media;
  // The briefing stops as soon as either side goes away.
  const abort = new AbortController();
  void Promise.race([caller.ended, target.ended]).then(() => abort.abort());
  await Promise.race([media.mediaFlowing(), delay(MEDIA_WAIT_MS), target.ended, caller.ended]);
  try {
    if (!abort.signal.aborted) await request.warm.brief(media, abort.signal);
  } catch (err) {
    deps.warn(`the briefing failed: ${errorMessage(err)}`);
    await deps.hangUp(target).catch(() => undefined);
    return failed({ ok: false, reason: 'target_failed', sip_code: null });
  }
  if (caller.state === 'ended') {
    await deps.hangUp(target).catch(() => undefined);
    return failed({ ok: false, reason: 'target_failed', sip_code: null });
  }
  if (target.state === 'ended') return failed({ ok: false, reason: 'target_failed', sip_code: null });
  return { outcome: { ok: true }, bridge: new Bridge(caller, target, deps, request.deadline) };
}

/** The target's call not answered: busy or a failure is `target_failed`, no answer `no_answer`, with the SIP code. */
function unanswered(outcome: UnansweredOutcome): Exclude<TransferOutcome, { ok: true }> {
  return outcome.kind === 'no_answer'
    ? { ok: false, reason: 'no_answer', sip_code: outcome.code }
    : { ok: false, reason: 'target_failed', sip_code: outcome.code };
}

/** `from`'s audio played into `to` from now on (queued at most MAX_QUEUED_FRAMES deep); returns the undo. */
function pipe(from: PhoneMedia, to: PhoneMedia): () => void {
  const frames: Int16Array[] = [];
  const off = from.onFrame((frame) => {
    frames.push(from.sampleRate === to.sampleRate ? frame : resample(frame, from.sampleRate, to.sampleRate));
    if (frames.length > MAX_QUEUED_FRAMES) frames.shift();
  });
  to.play({ nextFrame: () => frames.shift() ?? null });
  return () => {
    off();
    frames.length = 0;
  };
}

/** Keys pressed on `from` (RFC 4733) pressed on `to` too (an extension, a menu at the target); returns the undo. */
function relayKeys(from: PhoneMedia, to: PhoneMedia): () => void {
  return from.onDtmf((digit) => void to.sendDtmf(digit));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
