/**
 * One call and its dialog (RFC 3261 section 12): Call-ID, both tags, our CSeq, the remote target
 * (the peer's Contact) and the route set (Record-Route, reversed for the caller's side). In-dialog
 * requests (ACK of a 2xx, BYE, REFER) are built here; they go out on the call's flow, the address the
 * dialog was set up over (the trunk, or where the INVITE came from), which also holds when the peer
 * is behind NAT. The call's media (whatever the user agent's media port gives: call-media.ts) rides
 * along; the user agent drives the state.
 */
import type { CallMedia } from './call-media';
import { header, headers, paramOf, type SipRequest, type SipResponse, uriOf } from './sip-message';
import type { Flow } from './sip-transport';
import { newBranch } from './transactions';

export type CallDirection = 'outbound' | 'inbound';
export type CallState = 'calling' | 'early' | 'confirmed' | 'ended';
/**
 * Who ended the call: the peer (BYE or CANCEL), us (hangUp), an error (the peer's RTP stopped, or
 * its media failed), or the peer never acknowledged our 200 (Timer H, RFC 3261 section 17.2.1).
 */
export type EndedBy = 'remote' | 'local' | 'error' | 'unacknowledged';

export interface TransferResult {
  /** True when the transfer target answered (a 2xx in the NOTIFY's sipfrag). */
  ok: boolean;
  /**
   * Where it was decided: `refer` (the REFER was answered 3xx-6xx, or never: 408), `notify` (the
   * sipfrag's final status), `timeout` (no final NOTIFY within the transfer's time).
   */
  stage: 'refer' | 'notify' | 'timeout';
  /** The final status: the REFER's when refused, else the sipfrag's; null when nothing came. */
  code: number | null;
}

export interface CallEnd {
  by: EndedBy;
}

/** Where our side is reached: put in Via, Contact and SDP. */
export interface LocalAddress {
  host: string;
  port: number;
}

export interface SipCallOptions {
  direction: CallDirection;
  callId: string;
  localTag: string;
  /** Our From (outbound) or To (inbound) value, with our tag. */
  localHeader: string;
  /** The peer's To (outbound, its tag added when known) or From (inbound) value. */
  remoteHeader: string;
  flow: Flow;
  local: LocalAddress;
  /** The CSeq our first request takes. */
  cseq: number;
  /** Where our requests go until the peer's Contact is known (the Request-URI). */
  remoteTarget: string;
}

export class SipCall<M extends CallMedia = CallMedia> {
  readonly direction: CallDirection;
  readonly callId: string;
  readonly localTag: string;
  /** Our From (outbound) or To (inbound) value, with our tag. */
  readonly localHeader: string;
  /** The peer's To (outbound, its tag added when known) or From (inbound) value. */
  remoteHeader: string;
  readonly flow: Flow;
  readonly local: LocalAddress;
  state: CallState = 'calling';
  remoteTag: string | null = null;
  localCseq: number;
  remoteTarget: string;
  routeSet: string[] = [];
  /** The ACK of our INVITE's 2xx, kept to answer the 2xx's retransmissions. */
  ackOf2xx: SipRequest | null = null;
  /** A pending REFER waiting for its final NOTIFY. */
  pendingTransfer: ((result: TransferResult) => void) | null = null;
  readonly ended: Promise<CallEnd>;
  private endListeners: ((end: CallEnd) => void)[] = [];
  private settleEnded: (end: CallEnd) => void = () => undefined;
  /** Null until bound (`attachMedia`): an inbound call's once it is routed, an outbound call's before its INVITE. */
  private attached: M | null = null;

  constructor(options: SipCallOptions) {
    this.direction = options.direction;
    this.callId = options.callId;
    this.localTag = options.localTag;
    this.localHeader = options.localHeader;
    this.remoteHeader = options.remoteHeader;
    this.flow = options.flow;
    this.local = options.local;
    this.localCseq = options.cseq;
    this.remoteTarget = options.remoteTarget;
    this.ended = new Promise((resolve) => (this.settleEnded = resolve));
  }

  /** The call's media; an inbound call has it once answered (asking before is a bug of ours). */
  get media(): M {
    if (!this.attached) throw new Error(`call ${this.callId.slice(0, 60)} has no media yet`);
    return this.attached;
  }

  get hasMedia(): boolean {
    return this.attached !== null;
  }

  /** Gives the call its media once bound (closed at once when the call already ended). */
  attachMedia(media: M): void {
    this.attached = media;
    if (this.state === 'ended') media.close();
  }

  /** The caller or callee user part of the peer (`+15551234567`). */
  get remoteUser(): string {
    return /^sips?:([^@;]+)@/.exec(uriOf(this.remoteHeader))?.[1] ?? '';
  }

  onEnded(listener: (end: CallEnd) => void): void {
    this.endListeners.push(listener);
  }

  /** Marks the call over (once), closes its media and tells the listeners. */
  finish(by: EndedBy): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.attached?.close();
    // The peer hanging up on us during a transfer is it gone to the target (RFC 5589 lets either side
    // end the old dialog); any other end is the transfer lost with the call.
    if (this.pendingTransfer) this.pendingTransfer({ ok: by === 'remote', stage: 'notify', code: null });
    this.pendingTransfer = null;
    const end = { by };
    this.settleEnded(end);
    for (const l of this.endListeners) l(end);
  }

  /** Takes the dialog's remote side from a 2xx to our INVITE (RFC 3261 section 12.1.2). */
  confirmFromResponse(response: SipResponse): void {
    this.remoteHeader = header(response, 'To') ?? this.remoteHeader;
    this.remoteTag = paramOf(this.remoteHeader, 'tag') ?? null;
    const contact = header(response, 'Contact');
    if (contact) this.remoteTarget = uriOf(contact);
    this.routeSet = headers(response, 'Record-Route').reverse();
  }

  /** Takes the dialog's remote side from an INVITE we answer (RFC 3261 section 12.1.1). */
  confirmFromRequest(request: SipRequest): void {
    this.remoteTag = paramOf(this.remoteHeader, 'tag') ?? null;
    const contact = header(request, 'Contact');
    if (contact) this.remoteTarget = uriOf(contact);
    this.routeSet = headers(request, 'Record-Route');
  }

  /** A new request inside the dialog (BYE, REFER), or the ACK of a 2xx when `ackOf` is given. */
  request(method: string, extra: { name: string; value: string }[] = [], ackOf?: number): SipRequest {
    const seq = ackOf ?? ++this.localCseq;
    const protocol = this.flow.protocol.toUpperCase();
    return {
      kind: 'request',
      method,
      uri: this.remoteTarget,
      headers: [
        { name: 'Via', value: `SIP/2.0/${protocol} ${this.local.host}:${this.local.port};branch=${newBranch()};rport` },
        ...this.routeSet.map((value) => ({ name: 'Route', value })),
        { name: 'Max-Forwards', value: '70' },
        { name: 'From', value: this.localHeader },
        { name: 'To', value: this.remoteHeader },
        { name: 'Call-ID', value: this.callId },
        { name: 'CSeq', value: `${seq} ${method}` },
        ...extra,
      ],
      body: '',
    };
  }

  /** Our Contact: where the peer sends its in-dialog requests. */
  contact(user: string): string {
    const transport = this.flow.protocol === 'tcp' ? ';transport=tcp' : '';
    return `<sip:${user}@${this.local.host}:${this.local.port}${transport}>`;
  }
}
