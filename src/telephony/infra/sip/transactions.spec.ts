/**
 * The SIP transaction layer (RFC 3261 section 17) on a fake transport and Jest's fake clock: what is
 * sent when (Timers A, B, E, F, G, H and the wait after a final answer), which transaction a message
 * belongs to (top Via branch and CSeq method), the ACK of a non-2xx answer, and what the transaction
 * user is told. The same timers against a real socket: retransmissions.int-spec.ts.
 */
import { cseqOf, header, paramOf, responseTo, type SipMessage, type SipRequest, type SipResponse } from './sip-message';
import { type Flow, SipTransport } from './sip-transport';
import { newBranch, T1, TransactionLayer, type ServerTransaction, type TransactionUser } from './transactions';

const UDP: Flow = { protocol: 'udp', host: '192.0.2.10', port: 5060 };
const TCP: Flow = { protocol: 'tcp', host: '192.0.2.10', port: 5060 };
const OTHER_UDP: Flow = { protocol: 'udp', host: '192.0.2.11', port: 5060 };
/** Timers B, F and H: 64·T1. */
const TIMEOUT = 64 * T1;

/** Records what the layer sends, never opens a socket; the test delivers messages and fails flows. */
class FakeTransport extends SipTransport {
  readonly sent: { message: SipMessage; flow: Flow }[] = [];
  private deliverTo: (message: SipMessage, flow: Flow) => void = () => undefined;
  private failTo: (flow: Flow) => void = () => undefined;

  constructor() {
    super('127.0.0.1', 0);
  }
  override onMessage(listener: (message: SipMessage, flow: Flow) => void): void {
    this.deliverTo = listener;
  }
  override onFlowFailed(listener: (flow: Flow) => void): void {
    this.failTo = listener;
  }
  override send(message: SipMessage, flow: Flow): void {
    this.sent.push({ message, flow });
  }
  override start(): Promise<void> {
    throw new Error('a fake transport has no sockets');
  }
  incoming(message: SipMessage, flow: Flow = UDP): void {
    this.deliverTo(message, flow);
  }
  fail(flow: Flow): void {
    this.failTo(flow);
  }
  /** How many requests of `method` (or responses of `status`) were sent. */
  count(what: string | number): number {
    return this.sent.filter(({ message: m }) => (m.kind === 'request' ? m.method === what : m.status === what)).length;
  }
}

function request(method: string, branch = newBranch(), seq = 1): SipRequest {
  return {
    kind: 'request',
    method,
    uri: 'sip:+15551230000@trunk.example.com',
    headers: [
      { name: 'Via', value: `SIP/2.0/UDP 10.0.0.1:5060;branch=${branch}` },
      { name: 'Via', value: 'SIP/2.0/UDP 10.0.0.2:5060;branch=z9hG4bKproxy' },
      { name: 'Route', value: '<sip:proxy.example.com;lr>' },
      { name: 'Max-Forwards', value: '69' },
      { name: 'From', value: '<sip:+15559870000@example.com>;tag=caller' },
      { name: 'To', value: '<sip:+15551230000@trunk.example.com>' },
      { name: 'Call-ID', value: 'call-1@10.0.0.1' },
      { name: 'CSeq', value: `${seq} ${method}` },
      { name: 'Contact', value: '<sip:caller@10.0.0.1:5060>' },
    ],
    body: method === 'INVITE' ? 'v=0\r\n' : '',
  };
}

const branchOf = (message: SipMessage) => paramOf(header(message, 'Via') ?? '', 'branch');

/** A response to `req` whose CSeq names another method (same branch, e.g. a CANCEL's answer). */
function withMethod(response: SipResponse, method: string): SipResponse {
  const seq = cseqOf(response).seq;
  return {
    ...response,
    headers: response.headers.map((h) => (h.name === 'CSeq' ? { ...h, value: `${seq} ${method}` } : h)),
  };
}

describe('SIP transactions', () => {
  let transport: FakeTransport;
  let layer: TransactionLayer;
  const user = {
    requests: [] as { request: SipRequest; flow: Flow; transaction: ServerTransaction }[],
    acks: [] as SipRequest[],
    strays: [] as SipResponse[],
  };
  const tu: TransactionUser = {
    onRequest: (request, flow, transaction) => user.requests.push({ request, flow, transaction }),
    onAck: (ack) => user.acks.push(ack),
    onStrayResponse: (response) => user.strays.push(response),
  };

  beforeEach(() => {
    jest.useFakeTimers();
    transport = new FakeTransport();
    layer = new TransactionLayer(transport, tu);
    user.requests = [];
    user.acks = [];
    user.strays = [];
  });
  afterEach(() => {
    layer.stop();
    jest.useRealTimers();
  });

  /** Starts a client transaction for `req` on `flow`; returns the statuses it reports. */
  const send = (req: SipRequest, flow: Flow = UDP) => {
    const reported: number[] = [];
    const transaction = layer.request(req, flow, (response) => reported.push(response.status));
    return { reported, transaction };
  };
  /** The times (ms since the start) at which requests of `method` were sent while `ms` passed. */
  const sendTimes = (method: string, ms: number) => {
    const times: number[] = [];
    let seen = transport.count(method);
    for (let t = 0; t <= ms; t += 50) {
      if (transport.count(method) > seen) {
        for (; seen < transport.count(method); seen++) times.push(t);
      }
      jest.advanceTimersByTime(50);
    }
    return times;
  };

  describe('client transactions', () => {
    it('sends an INVITE over UDP at once and retransmits it on Timer A, doubling from T1 without a cap', () => {
      send(request('INVITE'));
      expect(transport.count('INVITE')).toBe(1);
      // Sent at 0; retransmitted 0.5, 1.5, 3.5, 7.5, 15.5 and 31.5 s after (intervals 0.5, 1, 2, 4, 8, 16 s).
      const times = sendTimes('INVITE', TIMEOUT - 100);
      expect(times).toEqual([500, 1500, 3500, 7500, 15_500, 31_500]);
    });

    it('reports a 408 when Timer B fires (64·T1) and sends nothing more', () => {
      const { reported } = send(request('INVITE'));
      jest.advanceTimersByTime(TIMEOUT - 1);
      expect(reported).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(reported).toEqual([408]);
      expect(layer.size.clients).toBe(0);
      const sent = transport.sent.length;
      jest.advanceTimersByTime(10 * TIMEOUT);
      expect(transport.sent).toHaveLength(sent);
      expect(reported).toEqual([408]);
    });

    it('retransmits a non-INVITE on Timer E, doubling from T1 up to T2, then reports a 408 on Timer F', () => {
      const { reported } = send(request('OPTIONS'));
      const times = sendTimes('OPTIONS', TIMEOUT - 100);
      // 0.5, 1.5, 3.5 s, then every T2 (4 s): 7.5, 11.5, … 31.5 s.
      expect(times).toEqual([500, 1500, 3500, 7500, 11_500, 15_500, 19_500, 23_500, 27_500, 31_500]);
      expect(reported).toEqual([]);
      jest.advanceTimersByTime(100);
      expect(reported).toEqual([408]);
      expect(layer.size.clients).toBe(0);
    });

    it('a provisional answer stops the INVITE retransmissions and is reported', () => {
      const invite = request('INVITE');
      const { reported } = send(invite);
      jest.advanceTimersByTime(600); // sent at 0 and 0.5 s
      transport.incoming(responseTo(invite, 100, 'Trying'));
      transport.incoming(responseTo(invite, 180, 'Ringing', 'callee'));
      jest.advanceTimersByTime(20_000);
      expect(transport.count('INVITE')).toBe(2);
      expect(reported).toEqual([100, 180]);
    });

    // RFC 3261 section 17.1.1.2: Timer B only ends an INVITE transaction still in "Calling"; once a
    // provisional answer came ("Proceeding"), the TU ends the attempt (the ring timeout and its CANCEL,
    // SIP_RING_TIMEOUT up to 10 min). Before this was fixed, a call ringing longer than 32 s was
    // reported as a 408 (no_answer) and no CANCEL was ever sent.
    it('a provisional answer stops Timer B: a ringing INVITE is not timed out after 64·T1', () => {
      const invite = request('INVITE');
      const { reported } = send(invite);
      transport.incoming(responseTo(invite, 180, 'Ringing', 'callee'));
      jest.advanceTimersByTime(TIMEOUT * 4);
      expect(reported).toEqual([180]);
    });

    it('a cancelled INVITE with no final answer ends as a 408 64·T1 after the CANCEL (RFC 3261 section 9.1)', () => {
      const invite = request('INVITE');
      const { reported, transaction } = send(invite);
      transport.incoming(responseTo(invite, 180, 'Ringing', 'callee'));
      jest.advanceTimersByTime(60_000);
      transaction.cancelled();
      jest.advanceTimersByTime(TIMEOUT - 1);
      expect(reported).toEqual([180]);
      jest.advanceTimersByTime(1);
      expect(reported).toEqual([180, 408]);
    });

    it('a provisional answer to a non-INVITE slows its retransmissions to T2 (Timer F still runs)', () => {
      const options = request('OPTIONS');
      const { reported } = send(options);
      jest.advanceTimersByTime(100);
      transport.incoming(responseTo(options, 100, 'Trying'));
      // The retransmission already due at 0.5 s goes; then one every T2.
      const times = sendTimes('OPTIONS', 13_000);
      expect(times.map((t) => t + 100)).toEqual([500, 4500, 8500, 12_500]);
      jest.advanceTimersByTime(TIMEOUT);
      expect(reported).toEqual([100, 408]);
    });

    it('a 2xx to an INVITE is reported once and ends the transaction at once: a retransmitted 2xx is a stray for the TU', () => {
      const invite = request('INVITE');
      const { reported } = send(invite);
      const ok = responseTo(invite, 200, 'OK', 'callee');
      transport.incoming(ok);
      expect(reported).toEqual([200]);
      expect(layer.size.clients).toBe(0);
      // The ACK of a 2xx is the TU's (a new transaction): the layer sends none.
      expect(transport.count('ACK')).toBe(0);
      transport.incoming(ok);
      expect(user.strays.map((r) => r.status)).toEqual([200]);
      expect(reported).toEqual([200]);
      jest.advanceTimersByTime(2 * TIMEOUT);
      expect(transport.count('INVITE')).toBe(1);
    });

    it('acknowledges a non-2xx final answer to an INVITE itself: same branch and top Via, the answer’s To, CSeq n ACK', () => {
      const branch = newBranch();
      const invite = request('INVITE', branch, 7);
      const { reported } = send(invite);
      transport.incoming(responseTo(invite, 486, 'Busy Here', 'callee'));
      expect(reported).toEqual([486]);
      const acks = transport.sent.filter(({ message }) => message.kind === 'request' && message.method === 'ACK');
      expect(acks).toHaveLength(1);
      const ack = acks[0]?.message as SipRequest;
      expect(acks[0]?.flow).toBe(UDP);
      expect(ack.uri).toBe(invite.uri);
      expect(branchOf(ack)).toBe(branch);
      expect(ack.headers.filter((h) => h.name === 'Via')).toHaveLength(1);
      expect(header(ack, 'Via')).toBe(header(invite, 'Via'));
      expect(header(ack, 'To')).toBe('<sip:+15551230000@trunk.example.com>;tag=callee');
      expect(header(ack, 'From')).toBe(header(invite, 'From'));
      expect(header(ack, 'Call-ID')).toBe(header(invite, 'Call-ID'));
      expect(header(ack, 'CSeq')).toBe('7 ACK');
      expect(header(ack, 'Route')).toBe('<sip:proxy.example.com;lr>');
      expect(header(ack, 'Max-Forwards')).toBe('70');
      expect(header(ack, 'Contact')).toBeUndefined();
      expect(ack.body).toBe('');
    });

    it('absorbs retransmissions of the non-2xx answer (acknowledged again, reported once) for 16 s over UDP, then ends', () => {
      const invite = request('INVITE');
      const { reported } = send(invite);
      const busy = responseTo(invite, 486, 'Busy Here', 'callee');
      transport.incoming(busy);
      jest.advanceTimersByTime(5_000);
      transport.incoming(busy);
      transport.incoming(busy);
      expect(transport.count('ACK')).toBe(3);
      expect(reported).toEqual([486]);
      // No retransmission of the INVITE after its final answer.
      expect(transport.count('INVITE')).toBe(1);
      expect(layer.size.clients).toBe(1);
      jest.advanceTimersByTime(TIMEOUT / 2 - 5_000);
      expect(layer.size.clients).toBe(0);
      transport.incoming(busy);
      expect(user.strays.map((r) => r.status)).toEqual([486]);
      expect(transport.count('ACK')).toBe(3);
    });

    it('a final answer to a non-INVITE stops its retransmissions; it is kept 16 s over UDP to absorb copies, no time over TCP', () => {
      const udpBye = request('BYE');
      const udp = send(udpBye, UDP);
      const tcpBye = request('BYE');
      const tcp = send(tcpBye, TCP);
      transport.incoming(responseTo(udpBye, 200, 'OK'), UDP);
      transport.incoming(responseTo(tcpBye, 200, 'OK'), TCP);
      expect(udp.reported).toEqual([200]);
      expect(tcp.reported).toEqual([200]);
      jest.advanceTimersByTime(1);
      expect(layer.size.clients).toBe(1); // the UDP one
      transport.incoming(responseTo(udpBye, 200, 'OK'), UDP);
      expect(udp.reported).toEqual([200]);
      expect(user.strays).toEqual([]);
      jest.advanceTimersByTime(TIMEOUT / 2);
      expect(layer.size.clients).toBe(0);
      expect(transport.count('BYE')).toBe(2); // neither was retransmitted
      expect(transport.count('ACK')).toBe(0); // only an INVITE's non-2xx is acknowledged
    });

    it('over TCP nothing is retransmitted, but Timers B and F still report a 408', () => {
      const invite = send(request('INVITE'), TCP);
      const bye = send(request('BYE'), TCP);
      jest.advanceTimersByTime(TIMEOUT);
      expect(transport.count('INVITE')).toBe(1);
      expect(transport.count('BYE')).toBe(1);
      expect(invite.reported).toEqual([408]);
      expect(bye.reported).toEqual([408]);
    });

    it('matches a response by the top Via branch and the CSeq method: an INVITE and its CANCEL share a branch', () => {
      const branch = newBranch();
      const invite = request('INVITE', branch);
      const cancel = request('CANCEL', branch);
      const inviteSide = send(invite);
      transport.incoming(responseTo(invite, 180, 'Ringing', 'callee'));
      const cancelSide = send(cancel);
      transport.incoming(withMethod(responseTo(invite, 200, 'OK', 'callee'), 'CANCEL'));
      expect(cancelSide.reported).toEqual([200]);
      expect(inviteSide.reported).toEqual([180]);
      transport.incoming(responseTo(invite, 487, 'Request Terminated', 'callee'));
      expect(inviteSide.reported).toEqual([180, 487]);
      expect(cancelSide.reported).toEqual([200]);
      // Another branch, or a method no transaction of this branch has: the TU's stray.
      transport.incoming(responseTo(request('INVITE', newBranch()), 200, 'OK'));
      transport.incoming(withMethod(responseTo(invite, 200, 'OK'), 'BYE'));
      expect(user.strays.map((r) => `${r.status} ${cseqOf(r).method}`)).toEqual(['200 INVITE', '200 BYE']);
    });

    it('the top Via decides, not another Via of the response', () => {
      const branch = newBranch();
      const invite = request('INVITE', branch);
      const { reported } = send(invite);
      const response = responseTo(invite, 180, 'Ringing');
      // Our branch only in the second Via: not ours.
      response.headers = [{ name: 'Via', value: 'SIP/2.0/UDP 10.0.0.9:5060;branch=z9hG4bKelse' }, ...response.headers];
      transport.incoming(response);
      expect(reported).toEqual([]);
      expect(user.strays).toHaveLength(1);
    });

    it('a provisional answer after the final one is not reported', () => {
      const bye = request('BYE');
      const { reported } = send(bye);
      transport.incoming(responseTo(bye, 481, 'Call/Transaction Does Not Exist'));
      transport.incoming(responseTo(bye, 100, 'Trying'));
      expect(reported).toEqual([481]);
    });

    it('a failed flow ends its pending transactions with a 503, and only those of that flow', () => {
      const onTcp = send(request('INVITE'), TCP);
      const onUdp = send(request('INVITE'), UDP);
      const elsewhere = send(request('INVITE'), { ...TCP, host: '192.0.2.99' });
      const answered = request('BYE');
      const done = send(answered, TCP);
      transport.incoming(responseTo(answered, 200, 'OK'), TCP);
      transport.fail(TCP);
      expect(onTcp.reported).toEqual([503]);
      expect(onUdp.reported).toEqual([]);
      expect(elsewhere.reported).toEqual([]);
      expect(done.reported).toEqual([200]); // already answered: nothing more
      // The 503 ended it: no 408 later.
      jest.advanceTimersByTime(TIMEOUT);
      expect(onTcp.reported).toEqual([503]);
      expect(onUdp.reported).toEqual([408]);
    });

    it('stop() ends every transaction: nothing is sent or reported afterwards', () => {
      const invite = send(request('INVITE'));
      const options = send(request('OPTIONS'));
      layer.stop();
      expect(layer.size).toEqual({ clients: 0, servers: 0 });
      const sent = transport.sent.length;
      jest.advanceTimersByTime(2 * TIMEOUT);
      expect(transport.sent).toHaveLength(sent);
      expect(invite.reported).toEqual([]);
      expect(options.reported).toEqual([]);
    });
  });

  describe('server transactions', () => {
    it('answers a new INVITE with 100 Trying at once and hands it to the TU once; a retransmission gets the last response', () => {
      const invite = request('INVITE');
      transport.incoming(invite, UDP);
      expect(transport.count(100)).toBe(1);
      expect(user.requests).toHaveLength(1);
      expect(user.requests[0]?.flow).toBe(UDP);
      transport.incoming(invite, UDP);
      expect(transport.count(100)).toBe(2);
      user.requests[0]?.transaction.respond(responseTo(invite, 180, 'Ringing', 'us'));
      transport.incoming(invite, UDP);
      expect(transport.count(180)).toBe(2);
      expect(transport.count(100)).toBe(2);
      expect(user.requests).toHaveLength(1);
      expect(layer.size.servers).toBe(1);
    });

    it('sends no 100 for a non-INVITE; a retransmission before the answer gets nothing, after it the answer again', () => {
      const bye = request('BYE');
      transport.incoming(bye);
      expect(transport.sent).toEqual([]);
      transport.incoming(bye);
      expect(transport.sent).toEqual([]);
      expect(user.requests).toHaveLength(1);
      user.requests[0]?.transaction.respond(responseTo(bye, 200, 'OK'));
      transport.incoming(bye);
      expect(transport.count(200)).toBe(2);
      // No retransmission of a non-INVITE's answer on a timer.
      jest.advanceTimersByTime(10_000);
      expect(transport.count(200)).toBe(2);
    });

    it('retransmits a final answer to an INVITE over UDP on Timer G (T1 doubling up to T2) until its ACK, which the TU does not see', () => {
      const branch = newBranch();
      const invite = request('INVITE', branch);
      transport.incoming(invite);
      const transaction = user.requests[0]?.transaction;
      transaction?.respond(responseTo(invite, 486, 'Busy Here', 'us'));
      expect(transport.count(486)).toBe(1);
      const times: number[] = [];
      for (let t = 50; t <= 12_000; t += 50) {
        const before = transport.count(486);
        jest.advanceTimersByTime(50);
        if (transport.count(486) > before) times.push(t);
      }
      expect(times).toEqual([500, 1500, 3500, 7500, 11_500]);
      transport.incoming(request('ACK', branch));
      expect(user.acks).toEqual([]);
      const sent = transport.count(486);
      jest.advanceTimersByTime(20_000);
      expect(transport.count(486)).toBe(sent);
      expect(transaction?.finalSent).toBe(true);
      expect(transaction?.answeredWith2xx).toBe(false);
    });

    it('retransmits a 2xx to an INVITE until the TU says it was acknowledged; the ACK of a 2xx (new branch) goes to the TU', () => {
      const invite = request('INVITE');
      transport.incoming(invite);
      const transaction = user.requests[0]?.transaction;
      transaction?.respond(responseTo(invite, 200, 'OK', 'us'));
      expect(transaction?.answeredWith2xx).toBe(true);
      jest.advanceTimersByTime(1600); // 0.5 and 1.5 s
      expect(transport.count(200)).toBe(3);
      const ack = request('ACK', newBranch());
      transport.incoming(ack);
      expect(user.acks).toEqual([ack]);
      // Same branch as the INVITE: a 2xx's ACK all the same, for the TU.
      const sameBranch = request('ACK', branchOf(invite));
      transport.incoming(sameBranch);
      expect(user.acks).toEqual([ack, sameBranch]);
      expect(transport.count(200)).toBe(3); // the ACK does not stop them: the TU does
      transaction?.acknowledged();
      jest.advanceTimersByTime(20_000);
      expect(transport.count(200)).toBe(3);
    });

    it('keeps retransmitting an unacknowledged INVITE answer until Timer H (64·T1), then forgets the transaction', () => {
      const invite = request('INVITE');
      transport.incoming(invite);
      user.requests[0]?.transaction.respond(responseTo(invite, 603, 'Decline', 'us'));
      jest.advanceTimersByTime(TIMEOUT - 1);
      const sent = transport.count(603);
      expect(sent).toBeGreaterThan(8); // 0, 0.5, 1.5, 3.5, 7.5, then every 4 s
      expect(layer.size.servers).toBe(1);
      jest.advanceTimersByTime(1);
      expect(layer.size.servers).toBe(0);
      jest.advanceTimersByTime(TIMEOUT);
      expect(transport.count(603)).toBe(sent);
      // The same INVITE again is now a new request for the TU.
      transport.incoming(invite);
      expect(user.requests).toHaveLength(2);
    });

    it('over TCP a final answer is sent once', () => {
      const invite = request('INVITE');
      transport.incoming(invite, TCP);
      user.requests[0]?.transaction.respond(responseTo(invite, 486, 'Busy Here', 'us'));
      jest.advanceTimersByTime(TIMEOUT - 1);
      expect(transport.count(486)).toBe(1);
      expect(transport.sent.every(({ flow }) => flow === TCP)).toBe(true);
    });

    it('sends one final answer only: a later respond() is ignored', () => {
      const bye = request('BYE');
      transport.incoming(bye);
      const transaction = user.requests[0]?.transaction;
      transaction?.respond(responseTo(bye, 200, 'OK'));
      transaction?.respond(responseTo(bye, 500, 'Server Internal Error'));
      expect(transport.count(200)).toBe(1);
      expect(transport.count(500)).toBe(0);
      transport.incoming(bye);
      expect(transport.count(200)).toBe(2);
    });

    it('keeps a non-INVITE server transaction 64·T1 after its answer (Timer J), then a copy is a new request', () => {
      const bye = request('BYE');
      transport.incoming(bye);
      user.requests[0]?.transaction.respond(responseTo(bye, 200, 'OK'));
      jest.advanceTimersByTime(TIMEOUT - 1);
      transport.incoming(bye);
      expect(user.requests).toHaveLength(1);
      jest.advanceTimersByTime(1);
      expect(layer.size.servers).toBe(0);
      transport.incoming(bye);
      expect(user.requests).toHaveLength(2);
    });

    it('tells requests apart by branch and method; a CANCEL is its own transaction and finds its INVITE by branch', () => {
      const branch = newBranch();
      const invite = request('INVITE', branch);
      const cancel = request('CANCEL', branch);
      transport.incoming(invite);
      transport.incoming(cancel);
      transport.incoming(request('INVITE', newBranch()));
      expect(user.requests.map((r) => r.request.method)).toEqual(['INVITE', 'CANCEL', 'INVITE']);
      expect(layer.size.servers).toBe(3);
      expect(layer.inviteTransactionFor(cancel)).toBe(user.requests[0]?.transaction);
      expect(layer.inviteTransactionFor(request('CANCEL', newBranch()))).toBeUndefined();
      // 100 Trying for the two INVITEs only.
      expect(transport.count(100)).toBe(2);
    });

    it('an ACK that matches no transaction goes to the TU', () => {
      const ack = request('ACK');
      transport.incoming(ack);
      expect(user.acks).toEqual([ack]);
      expect(user.requests).toEqual([]);
      expect(layer.size.servers).toBe(0);
    });

    it('answers on the flow the request came on', () => {
      const invite = request('INVITE');
      transport.incoming(invite, OTHER_UDP);
      user.requests[0]?.transaction.respond(responseTo(invite, 200, 'OK', 'us'));
      jest.advanceTimersByTime(600);
      expect(transport.sent.length).toBeGreaterThanOrEqual(3);
      expect(transport.sent.every(({ flow }) => flow === OTHER_UDP)).toBe(true);
    });

    it('stop() ends them: no retransmission afterwards', () => {
      const invite = request('INVITE');
      transport.incoming(invite);
      user.requests[0]?.transaction.respond(responseTo(invite, 200, 'OK', 'us'));
      layer.stop();
      expect(layer.size.servers).toBe(0);
      jest.advanceTimersByTime(TIMEOUT);
      expect(transport.count(200)).toBe(1);
    });
  });
});
