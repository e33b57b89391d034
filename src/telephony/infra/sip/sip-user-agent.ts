/**
 * The SIP user agent the platform places and answers calls with (docs/telephony.md). It listens on
 * one address over UDP and TCP and routes what comes in (only from `sipAllows` sources: sip-transport.ts):
 * - a new INVITE: `100 Trying`; an offer the media port refuses (for RTP: a media address that is not
 *   an allowed IP literal, or no codec we speak) is `488`; then the `onInvite` handler decides
 *   (routing, limits): refused with its code, or answered: `180`, only then is the call's media bound,
 *   and the 200 with its SDP is retransmitted until the ACK. Media flows from the ACK; a 200 never
 *   acknowledged ends the call with a BYE after 64·T1 (Timer H, 32 s). No handler refuses with 404;
 * - CANCEL of a pending INVITE: 200, then 487 for the INVITE; BYE: 200 and the call ends;
 * - a re-INVITE inside a call: refused with 488, the call goes on unchanged (decision 128);
 * - OPTIONS: 200, or 503 while the `onOptions` check says no new call would be taken (a proxy's
 *   health probe, e.g. kamailio's dispatcher, then sends new calls elsewhere); NOTIFY of a transfer
 *   we asked for: 200 and its outcome; anything else: 405/481.
 * Outbound calls are placed by `call` (outbound-dialer.ts); `hangUp` and `transfer` act on a call.
 * The user agent negotiates and binds no media itself: it is given a media port (call-media.ts; the
 * service's is `RtpCallMedia`, wired in telephony.module.ts), and its calls' media are of that port's type `M`.
 */
import { networkInterfaces } from 'node:os';
import type { BoundAnswer, CallMedia, CallMediaPort } from './call-media';
import type { CallOptions, OutboundCall } from './outbound-call';
import { dial } from './outbound-dialer';
import { type LocalAddress, SipCall, type TransferResult } from './sip-call';
import {
  excerpt,
  header,
  paramOf,
  parseSipUri,
  responseTo,
  type SipMessage,
  type SipRequest,
  type SipResponse,
} from './sip-message';
import { type Flow, type SipTrace, SipTransport } from './sip-transport';
import { newTag, type ServerTransaction, T1, TransactionLayer } from './transactions';
import type { UserAgentCore } from './user-agent-core';

export interface SipUserAgentOptions<M extends CallMedia = CallMedia> {
  /** Where to listen (SIP_LISTEN): host and port; port 0 takes a free one. */
  listenHost: string;
  listenPort: number;
  /** The address peers reach us at, put in Via, Contact and SDP; default the listen host (or this
   * machine's first external IPv4 address when listening on 0.0.0.0). */
  publicHost?: string;
  /** Where calls get their media: checks offers and answers, binds and starts it (call-media.ts). */
  media: CallMediaPort<M>;
  userAgentName?: string;
  /** Sees every SIP message in and out (a debugging log). */
  trace?: SipTrace;
  /** Told of malformed messages and socket errors (they never stop the agent). */
  onError?: (error: Error) => void;
  /**
   * Whether a source address may send SIP (SIP_ALLOWED_SOURCES), checked before anything is parsed.
   * The service always gives it (telephony.module.ts; RTP's is the media port's); unset, anyone may
   * (the library in tests).
   */
  sipAllows?: (address: string) => boolean;
  /** How long an answered INVITE waits for its ACK before a BYE ends it (Timer H); default 64·T1. */
  ackTimeoutMs?: number;
}

export interface IncomingInvite<M extends CallMedia = CallMedia> {
  /** The Request-URI's user part: the number called (`+15551234567`). */
  to: string;
  /** The From user part: the caller. */
  from: string;
  request: SipRequest;
  /** The call; its media carries audio once answered. */
  call: SipCall<M>;
}

/**
 * The handler's answer: refuse with a code, or answer. The call's media exists only once answered (no
 * port is bound for a call not routed): `{ answered }` is told, with it, right after the 200 is sent
 * (audio flows from the ACK).
 */
export type InviteDecision<M extends CallMedia = CallMedia> =
  'answer' | { answered: (media: M) => void } | { reject: number; retryAfterSeconds?: number };
export type InviteHandler<M extends CallMedia = CallMedia> = (invite: IncomingInvite<M>) => Promise<InviteDecision<M>>;

interface PendingInvite {
  transaction: ServerTransaction;
  /** Starts the call's media at the ACK; set once it is bound and answered. */
  start: (() => void) | null;
  /** Timer H, once the 200 is sent. */
  ackTimer: NodeJS.Timeout | null;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  404: 'Not Found',
  405: 'Method Not Allowed',
  480: 'Temporarily Unavailable',
  481: 'Call/Transaction Does Not Exist',
  486: 'Busy Here',
  487: 'Request Terminated',
  488: 'Not Acceptable Here',
  500: 'Server Internal Error',
  503: 'Service Unavailable',
  603: 'Decline',
};
const reason = (code: number): string => REASONS[code] ?? 'Failed';
const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS, REFER, NOTIFY';
/** A transfer with no final word (the REFER's refusal or the NOTIFY's final sipfrag) in this long has failed. */
export const TRANSFER_TIMEOUT_MS = 30_000;

export class SipUserAgent<M extends CallMedia = CallMedia> implements UserAgentCore<M> {
  readonly transactions: TransactionLayer;
  readonly media: CallMediaPort<M>;
  readonly userAgentName: string;
  private readonly transport: SipTransport;
  private readonly calls = new Map<string, SipCall<M>>();
  /** Inbound calls answered or being decided, until their ACK (or their end). */
  private readonly pendingInvites = new Map<SipCall<M>, PendingInvite>();
  private inviteHandler: InviteHandler<M> | null = null;
  private takesCalls: () => boolean = () => true;

  constructor(private readonly options: SipUserAgentOptions<M>) {
    this.transport = new SipTransport(options.listenHost, options.listenPort, {
      ...(options.sipAllows ? { allows: options.sipAllows } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      trace: options.trace ?? null,
    });
    this.transactions = new TransactionLayer(this.transport, {
      onRequest: (request, flow, transaction) =>
        void this.receive(request, flow, transaction).catch((error: unknown) => {
          // This request's failure: answered 500 if nothing was yet, never the process's.
          this.report(error);
          if (!transaction.finalSent) transaction.respond(this.response(request, 500));
        }),
      onAck: (request) => this.receiveAck(request),
      onStrayResponse: (response, flow) => this.receiveStray(response, flow),
    });
    this.media = options.media;
    this.userAgentName = options.userAgentName ?? 'voice-agent-platform';
  }

  async start(): Promise<void> {
    await this.transport.start();
  }

  /** Ends every call (BYE where answered, waiting at most 2 s for the answers) and closes the sockets. */
  async stop(): Promise<void> {
    const byes = Promise.all([...this.calls.values()].map((call) => this.hangUp(call).catch(() => undefined)));
    await Promise.race([byes, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    this.transactions.stop();
    await this.transport.stop();
  }

  /**
   * What the user agent holds, by kind: every entry belongs to a live call or transaction, and goes
   * within 32 s of its end (the state gauges at /metrics; the SIP fuzz test holds them to it). The
   * media port's entries (`rtp_ports`) come with them.
   */
  stateSizes(): Record<string, number> {
    const { clients, servers } = this.transactions.size;
    return {
      calls: this.calls.size,
      pending_invites: this.pendingInvites.size,
      client_transactions: clients,
      server_transactions: servers,
      tcp_connections: this.transport.connectionCount,
      ...this.media.stateSizes(),
    };
  }

  /** The bound SIP address (with the real port when 0 was asked). */
  get address(): LocalAddress {
    return { host: this.publicHost, port: this.transport.address.port };
  }

  /** Whether a new call would be taken now: OPTIONS is answered 200 while it says so, else 503. */
  onOptions(takesCalls: () => boolean): void {
    this.takesCalls = takesCalls;
  }

  /** Decides each new inbound call; without a handler every INVITE is refused with 404. */
  onInvite(handler: InviteHandler<M>): void {
    this.inviteHandler = handler;
  }

  call(options: CallOptions): Promise<OutboundCall<M>> {
    return dial(this, options);
  }

  /** Ends a call: BYE when answered, 480 for an inbound call not yet answered. */
  async hangUp(call: SipCall<M>, by: 'local' | 'error' | 'unacknowledged' = 'local'): Promise<void> {
    const pending = this.pendingInvites.get(call)?.transaction;
    if (pending && !pending.finalSent) {
      pending.respond(this.response(pending.request, 480, call.localTag));
      call.finish(by);
      return;
    }
    if (call.state !== 'confirmed') return call.finish(by);
    const bye = call.request('BYE');
    call.finish(by);
    await new Promise<void>((resolve) =>
      this.transactions.request(bye, call.flow, (r) => r.status >= 200 && resolve()),
    );
  }

  /**
   * Transfers the peer by REFER to `target` (a number, dialled through the same trunk, or a SIP URI),
   * and hangs up once the target answered. Resolves with the transfer's outcome: refused (the REFER's
   * final answer), failed (the NOTIFY's sipfrag), or no final word within `timeoutMs` (default 30 s).
   */
  transfer(call: SipCall<M>, target: string, timeoutMs = TRANSFER_TIMEOUT_MS): Promise<TransferResult> {
    if (call.state !== 'confirmed') return Promise.resolve({ ok: false, stage: 'refer', code: 481 });
    const referTo = target.startsWith('sip:') ? target : `sip:${target}@${call.flow.host}`;
    const refer = call.request('REFER', [
      { name: 'Refer-To', value: `<${referTo}>` },
      { name: 'Referred-By', value: `<${call.localHeader.replace(/^.*<|>.*$/g, '')}>` },
      { name: 'Contact', value: call.contact('agent') },
    ]);
    return new Promise<TransferResult>((resolve) => {
      const timer = setTimeout(() => settle({ ok: false, stage: 'timeout', code: null }), timeoutMs);
      const settle = (result: TransferResult) => {
        clearTimeout(timer);
        call.pendingTransfer = null;
        resolve(result);
        if (result.ok) void this.hangUp(call);
      };
      call.pendingTransfer = settle;
      this.transactions.request(refer, call.flow, (response) => {
        if (response.status >= 300) settle({ ok: false, stage: 'refer', code: response.status });
      });
    });
  }

  localAddress(flow: Flow): LocalAddress {
    void flow;
    return this.address;
  }

  track(call: SipCall<M>): void {
    this.calls.set(call.callId, call);
    call.onEnded(() => {
      const pending = this.pendingInvites.get(call);
      if (pending?.ackTimer) clearTimeout(pending.ackTimer);
      this.pendingInvites.delete(call);
      // Kept a little after the end to answer retransmissions, then forgotten.
      setTimeout(() => {
        if (this.calls.get(call.callId) === call) this.calls.delete(call.callId);
      }, 64 * T1).unref();
    });
  }

  /** A peer silent too long, or media that failed (a send to a bad address), ends the call. */
  mediaLost(call: SipCall<M>, error: Error | null): void {
    if (error) this.report(error);
    void this.hangUp(call, 'error');
  }

  private report(error: unknown): void {
    this.options.onError?.(error instanceof Error ? error : new Error(excerpt(String(error))));
  }

  send(message: SipMessage, flow: Flow): void {
    this.transport.send(message, flow);
  }

  private get publicHost(): string {
    if (this.options.publicHost) return this.options.publicHost;
    if (this.options.listenHost !== '0.0.0.0') return this.options.listenHost;
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    return external?.address ?? '127.0.0.1';
  }

  private response(request: SipRequest, code: number, toTag?: string): SipResponse {
    return responseTo(request, code, reason(code), toTag);
  }

  private async receive(request: SipRequest, flow: Flow, transaction: ServerTransaction): Promise<void> {
    const toTag = paramOf(header(request, 'To') ?? '', 'tag');
    const call = this.calls.get(header(request, 'Call-ID') ?? '');
    const inDialog = toTag !== undefined && call !== undefined && call.localTag === toTag;
    const respond = (code: number, extra: { name: string; value: string }[] = []) => {
      const response = this.response(request, code);
      response.headers.push(...extra);
      transaction.respond(response);
    };
    switch (request.method) {
      case 'INVITE':
        if (toTag === undefined) return this.answerInvite(request, flow, transaction);
        return respond(inDialog ? 488 : 481);
      case 'CANCEL':
        return this.receiveCancel(request, respond);
      case 'BYE':
        if (!inDialog) return respond(481);
        respond(200);
        return call.finish('remote');
      case 'NOTIFY':
        if (!inDialog) return respond(481);
        respond(200);
        return this.receiveNotify(call, request);
      case 'OPTIONS':
        // In a call (a keep-alive) always 200: only a probe outside any call asks about new calls.
        return respond(inDialog || this.takesCalls() ? 200 : 503, [
          { name: 'Allow', value: ALLOW },
          { name: 'Accept', value: 'application/sdp' },
        ]);
      case 'REFER':
        return respond(inDialog ? 603 : 481);
      default:
        return respond(405, [{ name: 'Allow', value: ALLOW }]);
    }
  }

  private async answerInvite(request: SipRequest, flow: Flow, transaction: ServerTransaction): Promise<void> {
    // No offer, no codec we speak, or media to an address that is not allowed: refused before routing.
    const offer = this.media.answer(request.body);
    if ('reject' in offer) return transaction.respond(this.response(request, offer.reject));
    const tag = newTag();
    const call = new SipCall<M>({
      direction: 'inbound',
      callId: header(request, 'Call-ID') ?? '',
      localTag: tag,
      localHeader: `${header(request, 'To') ?? ''};tag=${tag}`,
      remoteHeader: header(request, 'From') ?? '',
      flow,
      local: this.address,
      cseq: Math.floor(Math.random() * 10_000),
      remoteTarget: request.uri,
    }); // no media is bound before the call is routed
    call.confirmFromRequest(request);
    const pending: PendingInvite = { transaction, start: null, ackTimer: null };
    this.pendingInvites.set(call, pending);
    this.track(call);
    let decision: InviteDecision<M>;
    try {
      const to = parseSipUri(request.uri).user ?? '';
      decision = this.inviteHandler
        ? await this.inviteHandler({ to, from: call.remoteUser, request, call })
        : { reject: 404 };
    } catch (error) {
      this.report(error);
      decision = { reject: 500 };
    }
    const over = (): boolean => call.state === 'ended' || transaction.finalSent;
    if (over()) return; // cancelled while deciding
    if (decision !== 'answer' && 'reject' in decision) return this.refuse(call, transaction, decision);
    const ringing = this.response(request, 180, tag);
    ringing.headers.push({ name: 'Contact', value: call.contact('agent') });
    transaction.respond(ringing); // routed: it rings while its media is bound
    let bound: BoundAnswer<M>;
    try {
      bound = await offer.bind({ publicHost: this.address.host, onLost: (error) => this.mediaLost(call, error) });
    } catch {
      return this.refuse(call, transaction, { reject: 503, retryAfterSeconds: 5 });
    }
    call.attachMedia(bound.media);
    if (over()) return; // cancelled while binding: its media closed with it
    pending.start = bound.start;
    const ok = this.response(request, 200, tag);
    ok.headers.push(
      { name: 'Contact', value: call.contact('agent') },
      { name: 'Allow', value: ALLOW },
      { name: 'Content-Type', value: 'application/sdp' },
    );
    ok.body = bound.sdp;
    call.state = 'confirmed';
    transaction.respond(ok);
    if (decision !== 'answer') decision.answered(bound.media);
    // Timer H: an answer never acknowledged ends the call (a forged INVITE cannot make us stream).
    if (this.pendingInvites.has(call))
      pending.ackTimer = setTimeout(
        () => void this.hangUp(call, 'unacknowledged'),
        this.options.ackTimeoutMs ?? 64 * T1,
      );
  }

  private refuse(
    call: SipCall<M>,
    transaction: ServerTransaction,
    decision: { reject: number; retryAfterSeconds?: number },
  ): void {
    const refusal = this.response(transaction.request, decision.reject, call.localTag);
    if (decision.retryAfterSeconds !== undefined)
      refusal.headers.push({ name: 'Retry-After', value: String(decision.retryAfterSeconds) });
    transaction.respond(refusal);
    call.finish('local'); // its pending entry goes with it (track's onEnded)
  }

  /** The ACK of our 200: retransmissions stop and the media starts (not before: RFC 3261 section 13.3.1.4). */
  private receiveAck(request: SipRequest): void {
    const call = this.calls.get(header(request, 'Call-ID') ?? '');
    const pending = call && this.pendingInvites.get(call);
    if (!call || !pending || !pending.transaction.answeredWith2xx) return;
    if (paramOf(header(request, 'To') ?? '', 'tag') !== call.localTag) return;
    pending.transaction.acknowledged();
    if (pending.ackTimer) clearTimeout(pending.ackTimer);
    this.pendingInvites.delete(call);
    if (call.state === 'confirmed') pending.start?.();
  }

  private receiveCancel(request: SipRequest, respond: (code: number) => void): void {
    const invite = this.transactions.inviteTransactionFor(request);
    const call = this.calls.get(header(request, 'Call-ID') ?? '');
    if (!invite || !call || this.pendingInvites.get(call)?.transaction !== invite) return respond(481);
    respond(200);
    if (invite.finalSent) return; // too late: the call was answered or refused already
    invite.respond(this.response(invite.request, 487, call.localTag));
    call.finish('remote');
  }

  private receiveNotify(call: SipCall<M>, request: SipRequest): void {
    const event = (header(request, 'Event') ?? '').split(';')[0]?.trim().toLowerCase();
    const status = Number(/^SIP\/2\.0 (\d{3})/.exec(request.body.trim())?.[1] ?? 0);
    if (event !== 'refer' || status < 200 || !call.pendingTransfer) return;
    call.pendingTransfer({ ok: status < 300, stage: 'notify', code: status });
  }

  private receiveStray(response: SipResponse, flow: Flow): void {
    const call = this.calls.get(header(response, 'Call-ID') ?? '');
    if (call?.ackOf2xx && response.status >= 200 && response.status < 300) this.send(call.ackOf2xx, flow);
  }
}
