/**
 * SIP over UDP and TCP (RFC 3261 section 18) on one listen address: a UDP socket and a TCP server on
 * the same host and port. A message arrives with the `Flow` it came on (protocol, peer address and,
 * for TCP, the connection), and responses go back on that flow; requests to a peer over TCP reuse an
 * open connection to it or open one.
 *
 * Facing the internet (docs/security.md, "SIP and RTP"):
 * - a datagram or connection from outside SIP_ALLOWED_SOURCES is dropped before anything of it is
 *   read: no answer, nothing stored;
 * - over TCP a message's headers are at most 16 KB (else a `400` and the connection closes) and its
 *   body at most 64 KB (`413`, then closed); a connection idle for 60 s is closed; a source has at
 *   most 32 connections; bytes are gathered in one growing buffer (linear in what arrives);
 * - nothing received can throw out of a socket handler: a message the listener fails on is reported
 *   through `onError`, and a send that fails (a bad address) fails that flow only.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import {
  parseDatagram,
  responseTo,
  serialiseSipMessage,
  SipParseError,
  type SipMessage,
  splitStream,
  StreamLimitError,
} from './sip-message';

export type SipProtocol = 'udp' | 'tcp';

/** Where a message came from, or where one goes. */
export interface Flow {
  protocol: SipProtocol;
  host: string;
  port: number;
}

export type MessageListener = (message: SipMessage, flow: Flow) => void;
/** Sees every message sent and received (a debugging log); must not throw. */
export type SipTrace = (direction: 'in' | 'out', message: SipMessage, flow: Flow) => void;

const flowKey = (flow: Flow): string => `${flow.protocol}:${flow.host}:${flow.port}`;

/** The TCP limits of the contract (docs/telephony.md). */
export const TCP_LIMITS = { headerBytes: 16 * 1024, bodyBytes: 64 * 1024, idleMs: 60_000, perSource: 32 };

export interface SipTransportOptions {
  /** Whether a source address may send SIP (SIP_ALLOWED_SOURCES); default: anyone (library use). */
  allows?: (address: string) => boolean;
  onError?: (error: Error) => void;
  trace?: SipTrace | null;
  /** Overrides of TCP_LIMITS (tests). */
  tcpLimits?: Partial<typeof TCP_LIMITS>;
}

export class SipTransport {
  private udp: UdpSocket | null = null;
  private tcp: Server | null = null;
  private readonly connections = new Map<string, Socket>();
  private listener: MessageListener = () => undefined;
  private flowFailed: (flow: Flow) => void = () => undefined;
  private boundPort = 0;
  /** Open TCP connections by peer address (accepted and opened). */
  private readonly perSource = new Map<string, number>();
  private readonly allows: (address: string) => boolean;
  private readonly onError: (error: Error) => void;
  private readonly trace: SipTrace | null;
  private readonly limits: typeof TCP_LIMITS;

  constructor(
    private readonly host: string,
    private readonly port: number,
    options: SipTransportOptions = {},
  ) {
    this.allows = options.allows ?? (() => true);
    this.onError = options.onError ?? (() => undefined);
    this.trace = options.trace ?? null;
    this.limits = { ...TCP_LIMITS, ...options.tcpLimits };
  }

  /** Open TCP connections (accepted and opened). */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** The address the UA puts in Via and Contact. */
  get address(): { host: string; port: number } {
    return { host: this.host, port: this.boundPort };
  }

  onMessage(listener: MessageListener): void {
    this.listener = listener;
  }

  /** Told when a TCP connection we opened cannot be made or breaks (RFC 3261 section 8.1.3.1: a 503). */
  onFlowFailed(listener: (flow: Flow) => void): void {
    this.flowFailed = listener;
  }

  /**
   * Listens over UDP and TCP on one port. Port 0 means any free one: the UDP port is taken first, and
   * when that same number is taken over TCP by someone else, another is tried (a few times).
   */
  async start(): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return await this.listen();
      } catch (error) {
        const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
        if (this.port !== 0 || !taken || tries >= 5) throw error;
      }
    }
  }

  private async listen(): Promise<void> {
    const udp = createSocket('udp4');
    udp.on('message', (data, rinfo) => {
      if (!this.allows(rinfo.address)) return; // before any parsing: no answer, nothing kept
      this.receive(data, { protocol: 'udp', host: rinfo.address, port: rinfo.port });
    });
    udp.on('error', (error) => this.onError(error));
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(this.port, this.host, () => resolve());
    });
    this.udp = udp;
    this.boundPort = udp.address().port;
    const tcp = createServer((socket) => {
      const address = socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
      if (!this.allows(address) || (this.perSource.get(address) ?? 0) >= this.limits.perSource) {
        socket.on('error', () => undefined);
        socket.destroy();
        return;
      }
      this.adopt(socket);
    });
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(this.boundPort, this.host, () => resolve());
    }).catch(async (error: unknown) => {
      // Not listening after all: the UDP socket goes too, and the caller may try another port.
      this.udp = null;
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      throw error;
    });
    tcp.on('error', (error) => this.onError(error));
    this.tcp = tcp;
  }

  async stop(): Promise<void> {
    for (const socket of this.connections.values()) socket.destroy();
    this.connections.clear();
    await new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve()));
    this.udp = null;
    this.tcp = null;
  }

  /** Sends on `flow`; a failure (a bad address, a broken connection) is that flow's, reported once. */
  send(message: SipMessage, flow: Flow): void {
    this.trace?.('out', message, flow);
    const data = serialiseSipMessage(message);
    try {
      if (flow.protocol === 'udp') {
        this.udp?.send(data, flow.port, flow.host, (error) => error && this.onError(error));
        return;
      }
      let socket = this.connections.get(flowKey(flow));
      if (!socket) {
        socket = createConnection({ host: flow.host, port: flow.port, localAddress: this.host });
        this.adopt(socket, flow);
        socket.once('error', () => this.flowFailed(flow));
      }
      socket.write(data);
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)));
      setImmediate(() => this.flowFailed(flow));
    }
  }

  private adopt(socket: Socket, known?: Flow): void {
    const flow: Flow = known ?? {
      protocol: 'tcp',
      host: socket.remoteAddress?.replace(/^::ffff:/, '') ?? '',
      port: socket.remotePort ?? 0,
    };
    const key = flowKey(flow);
    this.connections.set(key, socket);
    this.perSource.set(flow.host, (this.perSource.get(flow.host) ?? 0) + 1);
    const stream = new StreamBuffer();
    socket.setTimeout(this.limits.idleMs, () => socket.destroy());
    let scanned = 0;
    let awaiting = 0;
    socket.on('data', (chunk) => {
      stream.append(chunk);
      if (stream.size < awaiting) return; // the body is not whole yet: nothing to look at again
      try {
        const split = splitStream(stream.view(), this.limits, scanned);
        stream.keep(split.rest);
        scanned = split.scanned;
        awaiting = split.awaiting;
        for (const message of split.messages) this.deliver(message, flow);
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        this.onError(failure);
        // A message over the limits is answered (400 or 413) when its head could be read, then the
        // connection closes; anything else malformed just closes it.
        if (failure instanceof StreamLimitError) socket.end(limitAnswer(failure));
        else socket.destroy();
        stream.keep(Buffer.alloc(0));
      }
    });
    socket.on('error', (error) => this.onError(error));
    socket.on('close', () => {
      if (this.connections.get(key) === socket) this.connections.delete(key);
      const left = (this.perSource.get(flow.host) ?? 1) - 1;
      if (left > 0) this.perSource.set(flow.host, left);
      else this.perSource.delete(flow.host);
    });
  }

  private receive(data: Buffer, flow: Flow): void {
    if (data.length <= 4 && data.toString().trim() === '') return; // keep-alive
    let message: SipMessage;
    try {
      message = parseDatagram(data);
    } catch (error) {
      if (error instanceof SipParseError) this.onError(error);
      else throw error;
      return;
    }
    this.deliver(message, flow);
  }

  private deliver(message: SipMessage, flow: Flow): void {
    try {
      this.trace?.('in', message, flow);
      this.listener(message, flow);
    } catch (error) {
      // The listener's failure is this message's, never the process's.
      this.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** The answer to a message over the TCP limits: 413 for its body, else 400 (with its head when it parsed). */
function limitAnswer(error: StreamLimitError): Buffer {
  const status = error.kind === 'body' ? 413 : 400;
  const reason = error.kind === 'body' ? 'Request Entity Too Large' : 'Message Too Large';
  if (error.request) return serialiseSipMessage(responseTo(error.request, status, reason));
  return Buffer.from(`SIP/2.0 ${status} ${reason}\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * The bytes of a TCP stream not yet taken as messages, in one buffer that grows by doubling: appending
 * a chunk copies it once (amortised), where concatenating everything so far per chunk would be
 * quadratic in a slowly sent message.
 */
class StreamBuffer {
  private data = Buffer.alloc(0);
  private length = 0;

  append(chunk: Buffer): void {
    if (this.length + chunk.length > this.data.length) {
      const grown = Buffer.allocUnsafe(Math.max(4096, this.data.length * 2, this.length + chunk.length));
      this.data.copy(grown, 0, 0, this.length);
      this.data = grown;
    }
    chunk.copy(this.data, this.length);
    this.length += chunk.length;
  }

  get size(): number {
    return this.length;
  }

  view(): Buffer {
    return this.data.subarray(0, this.length);
  }

  /** Keeps `rest` (the tail of `view()`) as the whole content. */
  keep(rest: Buffer): void {
    if (rest.length === this.length) return;
    rest.copy(this.data, 0);
    this.length = rest.length;
    if (this.length === 0 && this.data.length > 64 * 1024) this.data = Buffer.alloc(0);
  }
}
