/**
 * A hand-driven SIP peer for the hardening tests: a UDP socket on a chosen loopback address (127.0.0.0/8
 * gives a test several source addresses) that sends SIP text written here, independent of the
 * platform's own SIP code, and collects what comes back; plus RTP sockets that count what they receive.
 */
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { type CallsService, startCallsService } from './calls-harness';
import { freeUdpPort } from './sipp';
import type { TenantInfo } from './webhooks-harness';

export interface Received {
  /** The status of a response, or 0 for a request. */
  status: number;
  /** The method of a request (`BYE`), or the CSeq method of a response. */
  method: string;
  text: string;
  header(name: string): string | undefined;
  headers(name: string): string[];
  body: string;
  from: { address: string; port: number };
}

export function parse(text: string, from: { address: string; port: number }): Received {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const lines = head.split('\r\n');
  const start = lines[0] ?? '';
  const all = (name: string) =>
    lines
      .slice(1)
      .filter((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      .map((l) => l.slice(name.length + 1).trim());
  const status = /^SIP\/2\.0 (\d{3})/.exec(start);
  const cseq = all('CSeq')[0] ?? '';
  return {
    status: status ? Number(status[1]) : 0,
    method: status ? (cseq.split(' ')[1] ?? '') : (start.split(' ')[0] ?? ''),
    text,
    header: (name) => all(name)[0],
    headers: all,
    body,
    from,
  };
}

export class SipPeer {
  readonly received: Received[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    readonly socket: Socket,
    readonly address: string,
    readonly port: number,
  ) {
    socket.on('message', (data, rinfo) => {
      this.received.push(parse(data.toString('utf8'), rinfo));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async open(address = '127.0.0.1', port = 0): Promise<SipPeer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(port, address, () => resolve()));
    return new SipPeer(socket, address, socket.address().port);
  }

  send(text: string, port: number, host = '127.0.0.1'): void {
    this.socket.send(Buffer.from(text), port, host);
  }

  /** The first received message matching `match` (waits up to `timeoutMs`), or null. */
  async waitFor(match: (m: Received) => boolean, timeoutMs = 5000): Promise<Received | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** Counts RTP packets arriving at a UDP port on `address`; can send RTP from it. */
export class RtpCounter {
  packets = 0;
  private constructor(
    readonly socket: Socket,
    readonly port: number,
  ) {
    socket.on('message', () => this.packets++);
  }

  static async open(address = '127.0.0.1'): Promise<RtpCounter> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, address, () => resolve()));
    return new RtpCounter(socket, socket.address().port);
  }

  /** Sends `count` PCMU packets of 20 ms to `port` on 127.0.0.1. */
  sendRtp(port: number, count: number, ssrc = 0x1234): void {
    for (let i = 0; i < count; i++) {
      const packet = Buffer.alloc(12 + 160, 0xff);
      packet[0] = 0x80;
      packet[1] = 0;
      packet.writeUInt16BE(i & 0xffff, 2);
      packet.writeUInt32BE(i * 160, 4);
      packet.writeUInt32BE(ssrc, 8);
      this.socket.send(packet, port, '127.0.0.1');
    }
  }

  close(): void {
    this.socket.close();
  }
}

export interface InviteOptions {
  to: string;
  from?: string;
  /** The peer's SIP address (Via, Contact). */
  peer: { address: string; port: number };
  /** The SDP's connection address and port; `sdp` replaces the whole body. */
  media?: { host: string; port: number };
  sdp?: string;
  callId?: string;
}

export function offer(host: string, port: number): string {
  return [
    'v=0',
    `o=peer 1 1 IN IP4 ${host}`,
    's=-',
    `c=IN IP4 ${host}`,
    't=0 0',
    `m=audio ${port} RTP/AVP 0 101`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:101 telephone-event/8000',
    'a=ptime:20',
    '',
  ].join('\r\n');
}

export interface Invite {
  text: string;
  callId: string;
  branch: string;
  fromTag: string;
  /** The ACK of the 2xx `ok` (a new branch, its To with the tag). */
  ack(ok: Received): string;
  /** A BYE in the dialog the 2xx `ok` set up. */
  bye(ok: Received): string;
}

export function invite(options: InviteOptions): Invite {
  const callId = options.callId ?? `${randomBytes(8).toString('hex')}@peer`;
  const branch = `z9hG4bK${randomBytes(6).toString('hex')}`;
  const fromTag = randomBytes(4).toString('hex');
  const { address, port } = options.peer;
  const body = options.sdp ?? offer(options.media?.host ?? address, options.media?.port ?? 40_000);
  const from = `<sip:${options.from ?? '+15550001111'}@${address}:${port}>;tag=${fromTag}`;
  const to = `<sip:${options.to}@127.0.0.1>`;
  const text = [
    `INVITE sip:${options.to}@127.0.0.1 SIP/2.0`,
    `Via: SIP/2.0/UDP ${address}:${port};branch=${branch}`,
    `From: ${from}`,
    `To: ${to}`,
    `Call-ID: ${callId}`,
    'CSeq: 1 INVITE',
    `Contact: <sip:peer@${address}:${port}>`,
    'Max-Forwards: 70',
    'Content-Type: application/sdp',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
  const inDialog = (method: string, cseq: number, ok: Received) =>
    [
      `${method} ${/<([^>]+)>/.exec(ok.header('Contact') ?? '')?.[1] ?? `sip:${options.to}@127.0.0.1`} SIP/2.0`,
      `Via: SIP/2.0/UDP ${address}:${port};branch=z9hG4bK${randomBytes(6).toString('hex')}`,
      `From: ${from}`,
      `To: ${ok.header('To') ?? to}`,
      `Call-ID: ${callId}`,
      `CSeq: ${cseq} ${method}`,
      'Max-Forwards: 70',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
  return { text, callId, branch, fromTag, ack: (ok) => inDialog('ACK', 1, ok), bye: (ok) => inDialog('BYE', 2, ok) };
}

/** The media port our answer SDP names. */
export const answeredPort = (ok: Received): number => Number(/^m=audio (\d+)/m.exec(ok.body)?.[1] ?? 0);

/** UDP ports bound on this machine within [first, last] (from /proc/net/udp, any process). */
export function udpPortsBound(first: number, last: number): number[] {
  const ports: number[] = [];
  for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const local = line.trim().split(/\s+/)[1];
    if (!local) continue;
    const port = parseInt(local.split(':')[1] ?? '', 16);
    if (port >= first && port <= last) ports.push(port);
  }
  return ports;
}

/** The service with a trunk played by a `SipPeer` on 127.0.0.1 (so that SIP and RTP are allowed from there only). */
export interface TrunkedService {
  h: CallsService;
  trunk: SipPeer;
  /** The service's SIP port on 127.0.0.1. */
  sipPort: number;
  /** The first port of its RTP range (`rtpPairs` pairs). */
  rtpFirst: number;
}

export async function startTrunkedService(rtpPairs: number, env: Record<string, string>): Promise<TrunkedService> {
  const sipPort = await freeUdpPort();
  const rtpFirst = await freeUdpPort(true);
  const trunk = await SipPeer.open('127.0.0.1', await freeUdpPort());
  const h = await startCallsService({
    SIP_TRUNK_URI: `sip:127.0.0.1:${trunk.port}`,
    SIP_LISTEN: `127.0.0.1:${sipPort}`,
    RTP_PORTS: `${rtpFirst}-${rtpFirst + 2 * rtpPairs - 1}`,
    PAYMENT_PROCESSOR: 'test',
    TOPUP_SETTLE_DELAY: '100ms',
    ...env,
  });
  return { h, trunk, sipPort, rtpFirst };
}

/** Assigns `number` to `tenant` (the operator's way: active at once) with an agent that answers. */
export async function assignAnsweringNumber(h: CallsService, tenant: TenantInfo, number: string): Promise<void> {
  const assigned = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/phone_numbers`, {
    token: h.svc.adminToken,
    body: { phone_number: number, agent_config: { prompt: 'Answer.', first_message: 'Hello.' } },
  });
  if (assigned.status !== 201) throw new Error(`assigning ${number}: ${assigned.status} ${assigned.text}`);
}

/**
 * An RTP peer for a call's media: keeps when each packet from the service arrived, and talks
 * PCMU silence back every 20 ms so that the call's media flows. `close` stops both.
 */
export class MeasuredRtp {
  readonly arrivals: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private constructor(
    readonly socket: Socket,
    readonly port: number,
  ) {
    socket.on('message', () => this.arrivals.push(performance.now()));
  }

  static async open(address = '127.0.0.1'): Promise<MeasuredRtp> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, address, () => resolve()));
    return new MeasuredRtp(socket, socket.address().port);
  }

  /** Starts talking to `port` on 127.0.0.1 (silence, 20 ms a packet). */
  talkTo(port: number): void {
    let seq = 0;
    this.stopTalking();
    this.timer = setInterval(() => {
      const packet = Buffer.alloc(12 + 160, 0xff);
      packet[0] = 0x80;
      packet.writeUInt16BE(seq & 0xffff, 2);
      packet.writeUInt32BE(seq * 160, 4);
      packet.writeUInt32BE(0x5eed, 8);
      seq++;
      this.socket.send(packet, port, '127.0.0.1');
    }, 20);
  }

  stopTalking(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Gaps between the packets that arrived after `from` (ms since performance's origin). */
  gapsSince(from: number): number[] {
    const after = this.arrivals.filter((t) => t >= from);
    return after.slice(1).map((t, i) => t - (after[i] ?? t));
  }

  close(): void {
    this.stopTalking();
    this.socket.close();
  }
}

/** The service's /metrics figures named `name`, by their label set ('' for none). */
export async function metricOf(h: CallsService, name: string): Promise<Map<string, number>> {
  const text = (await h.call('GET', '/metrics', { token: h.svc.adminToken })).text;
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (m) found.set(m[1] ?? '', Number(m[2]));
  }
  return found;
}
