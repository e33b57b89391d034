/**
 * Places one outbound call: the INVITE with our SDP offer to `sip:<to>@<trunk host>`, provisional
 * answers reported as ringing, a digest challenge (401 or 407) answered once with the credentials,
 * CANCEL when the ring timeout passes (as soon as a provisional answer allows it: RFC 3261 section
 * 9.1), the ACK of the 2xx (resent when the 2xx is), and the outcome mapped from the final answer.
 * A 2xx that comes after we gave up is acknowledged and ended with a BYE. Whatever the trunk answers
 * is handled inside this call: a challenge we cannot answer fails it `sip_401`/`sip_407`, an answer SDP
 * the media port refuses (call-media.ts: a media address not allowed, no codec) fails it 488, and any
 * other error fails it, never the process.
 */
import { randomBytes } from 'node:crypto';
import type { CallMedia, OfferedMedia } from './call-media';
import { digestAuthorization, strongestChallenge } from './digest';
import { outcomeOfFailure } from '../../domain/call-outcomes';
import type { CallOptions, CallOutcome, OutboundCall } from './outbound-call';
import { SipCall } from './sip-call';
import { cseqOf, headers, parseSipUri, type SipRequest, type SipResponse } from './sip-message';
import type { Flow } from './sip-transport';
import { type ClientTransaction, newTag, type TransactionLayer } from './transactions';
import type { UserAgentCore } from './user-agent-core';

export async function dial<M extends CallMedia>(
  core: UserAgentCore<M>,
  options: CallOptions,
): Promise<OutboundCall<M>> {
  const trunk = parseSipUri(options.trunkUri);
  const protocol = trunk.params.transport?.toLowerCase() === 'tcp' ? 'tcp' : 'udp';
  const flow: Flow = { protocol, host: trunk.host, port: trunk.port ?? 5060 };
  const hostPort = trunk.port ? `${trunk.host}:${trunk.port}` : trunk.host;
  const requestUri = `sip:${options.to}@${hostPort}${protocol === 'tcp' ? ';transport=tcp' : ''}`;
  const local = core.localAddress(flow);
  const tag = newTag();
  const call = new SipCall<M>({
    direction: 'outbound',
    callId: `${randomBytes(10).toString('hex')}@${local.host}`,
    localTag: tag,
    localHeader: `<sip:${options.from}@${trunk.host}>;tag=${tag}`,
    remoteHeader: `<sip:${options.to}@${trunk.host}>`,
    flow,
    local,
    cseq: 1,
    remoteTarget: requestUri,
  });
  const offered = await core.media.offer({
    publicHost: local.host,
    onLost: (error) => core.mediaLost(call, error),
  });
  call.attachMedia(offered.media);
  return new Dialer(core, call, options, requestUri, offered);
}

class Dialer<M extends CallMedia> implements OutboundCall<M> {
  readonly outcome: Promise<CallOutcome<M>>;
  private settle: (outcome: CallOutcome<M>) => void = () => undefined;
  private settled = false;
  private readonly ringingListeners: ((status: number) => void)[] = [];
  private invite: SipRequest;
  private transaction: ClientTransaction;
  private provisional = false;
  private cancelWanted = false;
  private authenticated = false;
  private readonly ringTimer: NodeJS.Timeout;
  private readonly transactions: TransactionLayer;

  constructor(
    private readonly core: UserAgentCore<M>,
    readonly call: SipCall<M>,
    private readonly options: CallOptions,
    private readonly requestUri: string,
    /** The media bound for the call, with its offer. */
    private readonly offered: OfferedMedia<M>,
  ) {
    this.transactions = core.transactions;
    this.outcome = new Promise((resolve) => (this.settle = resolve));
    core.track(call);
    this.invite = this.buildInvite([]);
    this.transaction = this.send(this.invite);
    this.ringTimer = setTimeout(() => this.giveUp(), options.ringTimeoutMs);
  }

  onRinging(listener: (status: number) => void): void {
    this.ringingListeners.push(listener);
  }

  async hangUp(): Promise<void> {
    if (this.call.state === 'confirmed') return this.core.hangUp(this.call);
    this.giveUp();
  }

  private buildInvite(auth: { name: string; value: string }[]): SipRequest {
    const request = this.call.request('INVITE', [
      { name: 'Contact', value: this.call.contact(this.options.from) },
      { name: 'Allow', value: 'INVITE, ACK, CANCEL, BYE, OPTIONS, REFER, NOTIFY' },
      { name: 'Content-Type', value: 'application/sdp' },
      { name: 'User-Agent', value: this.core.userAgentName },
      ...auth,
    ]);
    request.uri = this.requestUri;
    request.body = this.offered.sdp;
    return request;
  }

  private send(invite: SipRequest): ClientTransaction {
    return this.transactions.request(invite, this.call.flow, (response) => this.receive(response));
  }

  private receive(response: SipResponse): void {
    try {
      this.handle(response);
    } catch {
      // Nothing the trunk sends may end more than this call.
      clearTimeout(this.ringTimer);
      if (this.call.state === 'confirmed') void this.core.hangUp(this.call);
      else this.call.finish('local');
      this.resolve({ kind: 'failed', code: response.status >= 300 ? response.status : 500 });
    }
  }

  private handle(response: SipResponse): void {
    const status = response.status;
    if (status < 200) {
      if (status === 100) return;
      this.provisional = true;
      if (this.call.state === 'calling') this.call.state = 'early';
      if (this.cancelWanted) this.sendCancel();
      else for (const l of this.ringingListeners) l(status);
      return;
    }
    if (status < 300) return this.answered(response);
    if ((status === 401 || status === 407) && this.retryWithCredentials(response)) return;
    clearTimeout(this.ringTimer);
    this.call.finish('remote');
    this.resolve(outcomeOfFailure(status));
  }

  /** Answers a digest challenge once; false when we cannot (no credentials, or challenged again). */
  private retryWithCredentials(response: SipResponse): boolean {
    const { username, password } = this.options;
    if (this.authenticated || this.settled || username === undefined || password === undefined) return false;
    const challengeHeader = response.status === 401 ? 'WWW-Authenticate' : 'Proxy-Authenticate';
    // Several challenges may be offered (RFC 8760: SHA-256 first): the strongest we support is answered.
    const challenge = strongestChallenge(headers(response, challengeHeader));
    if (!challenge) return false;
    this.authenticated = true;
    const value = digestAuthorization(challenge, { method: 'INVITE', uri: this.requestUri, username, password });
    const name = response.status === 401 ? 'Authorization' : 'Proxy-Authorization';
    this.invite = this.buildInvite([{ name, value }]);
    this.transaction = this.send(this.invite);
    return true;
  }

  private answered(response: SipResponse): void {
    clearTimeout(this.ringTimer);
    const first = this.call.ackOf2xx === null;
    if (first) this.call.confirmFromResponse(response);
    const ack = this.call.ackOf2xx ?? this.call.request('ACK', [], cseqOf(response).seq);
    this.call.ackOf2xx = ack;
    this.core.send(ack, this.call.flow);
    if (!first) return;
    if (this.settled || this.call.state === 'ended') {
      // We already gave up (ring timeout or hang-up) and the callee answered anyway: end it.
      this.call.state = 'confirmed';
      void this.core.hangUp(this.call);
      return;
    }
    // The answer starts the media, unless the media refuses it (acknowledged all the same, then a BYE).
    const refused = this.offered.complete(response.body);
    if (refused) {
      this.call.state = 'confirmed';
      void this.core.hangUp(this.call);
      this.resolve({ kind: 'failed', code: 488 });
      return;
    }
    this.call.state = 'confirmed';
    this.resolve({ kind: 'answered', call: this.call });
  }

  /** The ring timeout or a hang-up before the answer: CANCEL once a provisional answer allows it. */
  private giveUp(): void {
    if (this.settled) return;
    this.cancelWanted = true;
    if (this.provisional) this.sendCancel();
    this.call.finish('local');
    this.resolve({ kind: 'no_answer', code: null });
  }

  private sendCancel(): void {
    const keep = (name: string) => this.invite.headers.filter((h) => h.name === name);
    const cancel: SipRequest = {
      kind: 'request',
      method: 'CANCEL',
      uri: this.invite.uri,
      headers: [
        ...keep('Via').slice(0, 1),
        ...keep('Route'),
        { name: 'Max-Forwards', value: '70' },
        ...keep('From'),
        ...keep('To'),
        ...keep('Call-ID'),
        { name: 'CSeq', value: `${cseqOf(this.invite).seq} CANCEL` },
      ],
      body: '',
    };
    this.cancelWanted = false;
    this.transactions.request(cancel, this.call.flow, () => undefined);
    // No 487 within 64·T1 of the CANCEL: the INVITE's transaction ends all the same.
    this.transaction.cancelled();
  }

  private resolve(outcome: CallOutcome<M>): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(outcome);
  }
}
