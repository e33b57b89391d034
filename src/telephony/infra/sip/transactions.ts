/**
 * SIP transactions (RFC 3261 section 17), matched by the top Via branch and the CSeq method.
 * - Client: retransmits its request over UDP (Timer A for INVITE, E for others, doubling from T1 up
 *   to T2), gives up after 64·T1 (Timers B and F: a 408 is reported), acknowledges a non-2xx final
 *   answer to an INVITE itself (same branch) and absorbs its retransmissions.
 * - Server: answers a retransmitted request with the last response, sends `100 Trying` at once for
 *   an INVITE, retransmits a final INVITE answer over UDP until its ACK (Timer G; for a 2xx the UA
 *   core sees the ACK, a new transaction, and calls `acknowledged`).
 * Over TCP nothing is retransmitted; the timeouts stay.
 */
import { randomBytes } from 'node:crypto';
import { cseqOf, header, headers, paramOf, responseTo, type SipRequest, type SipResponse } from './sip-message';
import type { Flow, SipTransport } from './sip-transport';

export const T1 = 500;
export const T2 = 4000;
const TIMEOUT = 64 * T1;

export const newBranch = (): string => `z9hG4bK${randomBytes(8).toString('hex')}`;
export const newTag = (): string => randomBytes(6).toString('hex');

const topBranch = (message: SipRequest | SipResponse): string => paramOf(header(message, 'Via') ?? '', 'branch') ?? '';

export interface TransactionUser {
  /** A request that starts a new server transaction (not a retransmission, not an ACK of a non-2xx). */
  onRequest(request: SipRequest, flow: Flow, transaction: ServerTransaction): void;
  /** An ACK outside any transaction: the ACK of a 2xx. */
  onAck(request: SipRequest, flow: Flow): void;
  /** A response no client transaction waits for: a retransmitted 2xx to an INVITE. */
  onStrayResponse(response: SipResponse, flow: Flow): void;
}

export class TransactionLayer {
  private readonly clients = new Map<string, ClientTransaction>();
  private readonly servers = new Map<string, ServerTransaction>();

  constructor(
    readonly transport: SipTransport,
    private readonly user: TransactionUser,
  ) {
    transport.onMessage((message, flow) => {
      if (message.kind === 'response') this.receiveResponse(message, flow);
      else this.receiveRequest(message, flow);
    });
    transport.onFlowFailed((flow) => {
      for (const transaction of [...this.clients.values()]) {
        const f = transaction.flow;
        if (f.protocol === flow.protocol && f.host === flow.host && f.port === flow.port) transaction.transportFailed();
      }
    });
  }

  /** Sends `request` (whose top Via carries a fresh branch) and reports each response. */
  request(request: SipRequest, flow: Flow, onResponse: (response: SipResponse) => void): ClientTransaction {
    const transaction = new ClientTransaction(this.transport, request, flow, onResponse, () =>
      this.clients.delete(transaction.key),
    );
    this.clients.set(transaction.key, transaction);
    transaction.start();
    return transaction;
  }

  /** Transactions held (for the state gauges: none outlives its timers). */
  get size(): { clients: number; servers: number } {
    return { clients: this.clients.size, servers: this.servers.size };
  }

  /** The server transaction of the INVITE a CANCEL names (same branch). */
  inviteTransactionFor(cancel: SipRequest): ServerTransaction | undefined {
    return this.servers.get(`${topBranch(cancel)}|INVITE`);
  }

  stop(): void {
    for (const t of this.clients.values()) t.terminate();
    for (const t of this.servers.values()) t.terminate();
    this.clients.clear();
    this.servers.clear();
  }

  private receiveResponse(response: SipResponse, flow: Flow): void {
    const transaction = this.clients.get(`${topBranch(response)}|${cseqOf(response).method}`);
    if (transaction) transaction.receive(response);
    else this.user.onStrayResponse(response, flow);
  }

  private receiveRequest(request: SipRequest, flow: Flow): void {
    const method = request.method === 'ACK' ? 'INVITE' : request.method;
    const existing = this.servers.get(`${topBranch(request)}|${method}`);
    if (request.method === 'ACK') {
      if (existing && !existing.answeredWith2xx) existing.acknowledged();
      else this.user.onAck(request, flow);
      return;
    }
    if (existing) {
      existing.retransmitLast();
      return;
    }
    const transaction = new ServerTransaction(this.transport, request, flow, () =>
      this.servers.delete(transaction.key),
    );
    this.servers.set(transaction.key, transaction);
    if (request.method === 'INVITE') transaction.respond(responseTo(request, 100, 'Trying'));
    this.user.onRequest(request, flow, transaction);
  }
}

export class ClientTransaction {
  readonly key: string;
  private retransmit: NodeJS.Timeout | null = null;
  private timeout: NodeJS.Timeout | null = null;
  private final: SipResponse | null = null;
  private interval = T1;

  constructor(
    private readonly transport: SipTransport,
    readonly request: SipRequest,
    readonly flow: Flow,
    private readonly onResponse: (response: SipResponse) => void,
    private readonly onTerminated: () => void,
  ) {
    this.key = `${topBranch(request)}|${request.method}`;
  }

  start(): void {
    this.transport.send(this.request, this.flow);
    if (this.flow.protocol === 'udp') this.scheduleRetransmit();
    this.timeout = setTimeout(() => {
      if (this.final) return;
      this.onResponse(responseTo(this.request, 408, 'Request Timeout'));
      this.terminate();
    }, TIMEOUT);
  }

  receive(response: SipResponse): void {
    const isInvite = this.request.method === 'INVITE';
    if (response.status < 200) {
      // A provisional answer stops INVITE retransmissions and Timer B (RFC 3261 section 17.1.1.2: it
      // only times out an INVITE still "Calling"; a ringing call is the TU's to give up, by a CANCEL:
      // `cancelled`). Other requests go on at T2, Timer F still running.
      if (isInvite) {
        this.stopRetransmit();
        if (this.timeout) clearTimeout(this.timeout);
        this.timeout = null;
      } else this.interval = T2;
      if (!this.final) this.onResponse(response);
      return;
    }
    if (isInvite && response.status >= 300) this.transport.send(this.ackFor(response), this.flow);
    if (this.final) return; // a retransmitted final answer: acknowledged again above, reported once
    this.final = response;
    this.stopRetransmit();
    this.onResponse(response);
    // Keep absorbing retransmissions of a non-2xx final answer over UDP for a while (Timers D and K).
    if (isInvite && response.status < 300) this.terminate();
    else {
      if (this.timeout) clearTimeout(this.timeout);
      this.timeout = setTimeout(() => this.terminate(), this.flow.protocol === 'udp' ? TIMEOUT / 2 : 0);
    }
  }

  /**
   * A CANCEL was sent for this INVITE: if no final answer (a 487) comes within 64·T1, the transaction
   * ends as a 408 (RFC 3261 section 9.1), so that a callee that never answers holds nothing here.
   */
  cancelled(): void {
    if (this.final) return;
    if (this.timeout) clearTimeout(this.timeout);
    this.timeout = setTimeout(() => {
      if (this.final) return;
      this.onResponse(responseTo(this.request, 408, 'Request Timeout'));
      this.terminate();
    }, TIMEOUT);
  }

  /** The connection could not be made: reported as a 503 (RFC 3261 section 8.1.3.1). */
  transportFailed(): void {
    if (this.final) return;
    this.final = responseTo(this.request, 503, 'Service Unavailable');
    this.onResponse(this.final);
    this.terminate();
  }

  terminate(): void {
    this.stopRetransmit();
    if (this.timeout) clearTimeout(this.timeout);
    this.onTerminated();
  }

  private scheduleRetransmit(): void {
    this.retransmit = setTimeout(() => {
      this.transport.send(this.request, this.flow);
      this.interval = this.request.method === 'INVITE' ? this.interval * 2 : Math.min(this.interval * 2, T2);
      this.scheduleRetransmit();
    }, this.interval);
  }

  private stopRetransmit(): void {
    if (this.retransmit) clearTimeout(this.retransmit);
    this.retransmit = null;
  }

  /** The ACK of a non-2xx answer (RFC 3261 section 17.1.1.3): same branch, the answer's To. */
  private ackFor(response: SipResponse): SipRequest {
    const keep = (name: string) => this.request.headers.filter((h) => h.name === name);
    return {
      kind: 'request',
      method: 'ACK',
      uri: this.request.uri,
      headers: [
        keep('Via')[0] ?? { name: 'Via', value: '' },
        ...keep('Route'),
        { name: 'Max-Forwards', value: '70' },
        ...keep('From'),
        { name: 'To', value: header(response, 'To') ?? '' },
        ...keep('Call-ID'),
        { name: 'CSeq', value: `${cseqOf(this.request).seq} ACK` },
      ],
      body: '',
    };
  }
}

export class ServerTransaction {
  readonly key: string;
  answeredWith2xx = false;
  private last: SipResponse | null = null;
  private retransmit: NodeJS.Timeout | null = null;
  private expiry: NodeJS.Timeout | null = null;

  constructor(
    private readonly transport: SipTransport,
    readonly request: SipRequest,
    readonly flow: Flow,
    private readonly onTerminated: () => void,
  ) {
    this.key = `${topBranch(request)}|${request.method}`;
  }

  get finalSent(): boolean {
    return (this.last?.status ?? 0) >= 200;
  }

  respond(response: SipResponse): void {
    if (this.finalSent) return;
    this.last = response;
    this.transport.send(response, this.flow);
    if (response.status < 200) return;
    this.answeredWith2xx = response.status < 300;
    const isInvite = this.request.method === 'INVITE';
    if (isInvite && this.flow.protocol === 'udp') this.scheduleRetransmit(T1);
    this.expiry = setTimeout(() => this.terminate(), TIMEOUT);
  }

  retransmitLast(): void {
    if (this.last) this.transport.send(this.last, this.flow);
  }

  /** The ACK came: stop retransmitting the final answer. */
  acknowledged(): void {
    if (this.retransmit) clearTimeout(this.retransmit);
    this.retransmit = null;
  }

  terminate(): void {
    this.acknowledged();
    if (this.expiry) clearTimeout(this.expiry);
    this.onTerminated();
  }

  private scheduleRetransmit(interval: number): void {
    this.retransmit = setTimeout(() => {
      if (this.last) this.transport.send(this.last, this.flow);
      this.scheduleRetransmit(Math.min(interval * 2, T2));
    }, interval);
  }
}

/** Every Record-Route value of a message, in order. */
export const recordRoutes = (message: SipRequest | SipResponse): string[] => headers(message, 'Record-Route');
