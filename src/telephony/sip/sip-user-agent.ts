/**
 * The SIP user agent the platform places and answers calls with (docs/telephony.md). It listens on
 * one address over UDP and TCP and routes what comes in:
 * - a new INVITE: `100 Trying`, `180 Ringing`, then the `onInvite` handler decides: answered with our
 *   SDP (200, retransmitted until the ACK) or refused with its code; no handler refuses with 404;
 * - CANCEL of a pending INVITE: 200, then 487 for the INVITE; BYE: 200 and the call ends;
 * - a re-INVITE inside a call: refused with 488, the call goes on unchanged (decision 128);
 * - OPTIONS: 200; NOTIFY of a transfer we asked for: 200 and its outcome; anything else: 405/481.
 * Outbound calls are placed by `call` (outbound-dialer.ts); `hangUp` and `transfer` act on a call.
 */
import { networkInterfaces } from 'node:os';
import { RtpMediaSession } from '../media/rtp-media-session';
import type { PortRange } from '../media/rtp-ports';
import { RtpPortAllocator } from '../media/rtp-ports';
import { buildAnswer, negotiate, parseSdp } from '../media/sdp';
import type { CallOptions, OutboundCall } from './outbound-call';
import { dial } from './outbound-dialer';
import { type LocalAddress, SipCall, type TransferResult } from './sip-call';
import {
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

export interface SipUserAgentOptions {
  /** Where to listen (SIP_LISTEN): host and port; port 0 takes a free one. */
  listenHost: string;
  listenPort: number;
  /** The address peers reach us at, put in Via, Contact and SDP; default the listen host (or this
   * machine's first external IPv4 address when listening on 0.0.0.0). */
  publicHost?: string;
  rtpPorts: PortRange;
  userAgentName?: string;
  /**
   * A call whose peer sends no RTP for this long (from the answer on) is ended with a BYE, as ended
   * by `error` (a peer gone without a BYE). Default 60 s; 0: never.
   */
  rtpTimeoutMs?: number;
  /** Sees every SIP message in and out (a debugging log). */
  trace?: SipTrace;
  /** Told of malformed messages and socket errors (they never stop the agent). */
  onError?: (error: Error) => void;
}

export interface IncomingInvite {
  /** The Request-URI's user part: the number called (`+15551234567`). */
  to: string;
  /** The From user part: the caller. */
  from: string;
  request: SipRequest;
  /** The call; its media carries audio once answered. */
  call: SipCall;
}

export type InviteDecision = 'answer' | { reject: number };
export type InviteHandler = (invite: IncomingInvite) => Promise<InviteDecision>;

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

export class SipUserAgent implements UserAgentCore {
  readonly transactions: TransactionLayer;
  readonly rtpPorts: RtpPortAllocator;
  readonly userAgentName: string;
  private readonly transport: SipTransport;
  private readonly calls = new Map<string, SipCall>();
  private readonly pendingInvites = new Map<SipCall, ServerTransaction>();
  private inviteHandler: InviteHandler | null = null;

  constructor(private readonly options: SipUserAgentOptions) {
    this.transport = new SipTransport(options.listenHost, options.listenPort, options.onError, options.trace);
    this.transactions = new TransactionLayer(this.transport, {
      onRequest: (request, flow, transaction) => void this.receive(request, flow, transaction),
      onAck: (request) => this.receiveAck(request),
      onStrayResponse: (response, flow) => this.receiveStray(response, flow),
    });
    this.rtpPorts = new RtpPortAllocator(options.rtpPorts);
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

  /** The bound SIP address (with the real port when 0 was asked). */
  get address(): LocalAddress {
    return { host: this.publicHost, port: this.transport.address.port };
  }

  get mediaHost(): string {
    return this.options.listenHost;
  }

  /** Decides each new inbound call; without a handler every INVITE is refused with 404. */
  onInvite(handler: InviteHandler): void {
    this.inviteHandler = handler;
  }

  call(options: CallOptions): Promise<OutboundCall> {
    return dial(this, options);
  }

  /** Ends a call: BYE when answered, 480 for an inbound call not yet answered. */
  async hangUp(call: SipCall, by: 'local' | 'error' = 'local'): Promise<void> {
    const pending = this.pendingInvites.get(call);
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
   * and hangs up once the target answered. Resolves with the transfer's outcome.
   */
  transfer(call: SipCall, target: string): Promise<TransferResult> {
    if (call.state !== 'confirmed') return Promise.resolve({ ok: false, code: 481 });
    const referTo = target.startsWith('sip:') ? target : `sip:${target}@${call.flow.host}`;
    const refer = call.request('REFER', [
      { name: 'Refer-To', value: `<${referTo}>` },
      { name: 'Referred-By', value: `<${call.localHeader.replace(/^.*<|>.*$/g, '')}>` },
      { name: 'Contact', value: call.contact('agent') },
    ]);
    return new Promise<TransferResult>((resolve) => {
      const timer = setTimeout(() => settle({ ok: false, code: 408 }), 64 * T1);
      const settle = (result: TransferResult) => {
        clearTimeout(timer);
        call.pendingTransfer = null;
        resolve(result);
        if (result.ok) void this.hangUp(call);
      };
      call.pendingTransfer = settle;
      this.transactions.request(refer, call.flow, (response) => {
        if (response.status >= 300) settle({ ok: false, code: response.status });
      });
    });
  }

  localAddress(flow: Flow): LocalAddress {
    void flow;
    return this.address;
  }

  track(call: SipCall): void {
    this.calls.set(call.callId, call);
    call.media.onPeerSilent(this.options.rtpTimeoutMs ?? 60_000, () => void this.hangUp(call, 'error'));
    // Kept a little after the end to answer retransmissions, then forgotten.
    call.onEnded(() => setTimeout(() => this.calls.delete(call.callId), 64 * T1).unref());
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
        return respond(200, [
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
    let negotiated;
    try {
      negotiated = negotiate(parseSdp(request.body));
    } catch {
      return transaction.respond(this.response(request, 488)); // no offer, or no codec we speak
    }
    let media: RtpMediaSession;
    try {
      media = await RtpMediaSession.open(this.mediaHost, this.rtpPorts);
    } catch {
      return transaction.respond(this.response(request, 503));
    }
    const tag = newTag();
    const call = new SipCall(
      'inbound',
      header(request, 'Call-ID') ?? '',
      tag,
      `${header(request, 'To') ?? ''};tag=${tag}`,
      header(request, 'From') ?? '',
      flow,
      this.address,
      media,
      Math.floor(Math.random() * 10_000),
      request.uri,
    );
    call.confirmFromRequest(request);
    this.track(call);
    this.pendingInvites.set(call, transaction);
    const ringing = this.response(request, 180, tag);
    ringing.headers.push({ name: 'Contact', value: call.contact('agent') });
    transaction.respond(ringing);
    let decision: InviteDecision;
    try {
      const to = parseSipUri(request.uri).user ?? '';
      decision = this.inviteHandler
        ? await this.inviteHandler({ to, from: call.remoteUser, request, call })
        : { reject: 404 };
    } catch {
      decision = { reject: 500 };
    }
    if (call.state === 'ended' || transaction.finalSent) return; // cancelled while deciding
    if (decision !== 'answer') {
      transaction.respond(this.response(request, decision.reject, tag));
      this.pendingInvites.delete(call);
      return call.finish('local');
    }
    const ok = this.response(request, 200, tag);
    ok.headers.push(
      { name: 'Contact', value: call.contact('agent') },
      { name: 'Allow', value: ALLOW },
      { name: 'Content-Type', value: 'application/sdp' },
    );
    ok.body = buildAnswer(this.address.host, media.port, negotiated);
    call.state = 'confirmed';
    media.start(negotiated);
    transaction.respond(ok);
  }

  private receiveAck(request: SipRequest): void {
    const call = this.calls.get(header(request, 'Call-ID') ?? '');
    const transaction = call && this.pendingInvites.get(call);
    if (!call || !transaction) return;
    transaction.acknowledged();
    this.pendingInvites.delete(call);
  }

  private receiveCancel(request: SipRequest, respond: (code: number) => void): void {
    const invite = this.transactions.inviteTransactionFor(request);
    const call = this.calls.get(header(request, 'Call-ID') ?? '');
    if (!invite || !call) return respond(481);
    respond(200);
    if (invite.finalSent) return; // too late: the call was answered or refused already
    invite.respond(this.response(invite.request, 487, call.localTag));
    this.pendingInvites.delete(call);
    call.finish('remote');
  }

  private receiveNotify(call: SipCall, request: SipRequest): void {
    const event = (header(request, 'Event') ?? '').split(';')[0]?.trim().toLowerCase();
    const status = Number(/^SIP\/2\.0 (\d{3})/.exec(request.body.trim())?.[1] ?? 0);
    if (event !== 'refer' || status < 200 || !call.pendingTransfer) return;
    call.pendingTransfer({ ok: status < 300, code: status });
  }

  private receiveStray(response: SipResponse, flow: Flow): void {
    const call = this.calls.get(header(response, 'Call-ID') ?? '');
    if (call?.ackOf2xx && response.status >= 200 && response.status < 300) this.send(call.ackOf2xx, flow);
  }
}
