/**
 * SIP over UDP and TCP (RFC 3261 section 18) on one listen address: a UDP socket and a TCP server on
 * the same host and port. A message arrives with the `Flow` it came on (protocol, peer address and,
 * for TCP, the connection), and responses go back on that flow; requests to a peer over TCP reuse an
 * open connection to it or open one.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { parseDatagram, serialiseSipMessage, SipParseError, type SipMessage, splitStream } from './sip-message';

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

export class SipTransport {
  private udp: UdpSocket | null = null;
  private tcp: Server | null = null;
  private readonly connections = new Map<string, Socket>();
  private listener: MessageListener = () => undefined;
  private flowFailed: (flow: Flow) => void = () => undefined;
  private boundPort = 0;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly onError: (error: Error) => void = () => undefined,
    private readonly trace: SipTrace | null = null,
  ) {}

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

  async start(): Promise<void> {
    const udp = createSocket('udp4');
    udp.on('message', (data, rinfo) => this.receive(data, { protocol: 'udp', host: rinfo.address, port: rinfo.port }));
    udp.on('error', (error) => this.onError(error));
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(this.port, this.host, () => resolve());
    });
    this.udp = udp;
    this.boundPort = udp.address().port;
    const tcp = createServer((socket) => this.adopt(socket));
    tcp.on('error', (error) => this.onError(error));
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(this.boundPort, this.host, () => resolve());
    });
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

  send(message: SipMessage, flow: Flow): void {
    this.trace?.('out', message, flow);
    const data = serialiseSipMessage(message);
    if (flow.protocol === 'udp') {
      this.udp?.send(data, flow.port, flow.host);
      return;
    }
    let socket = this.connections.get(flowKey(flow));
    if (!socket) {
      socket = createConnection({ host: flow.host, port: flow.port, localAddress: this.host });
      this.adopt(socket, flow);
      socket.once('error', () => this.flowFailed(flow));
    }
    socket.write(data);
  }

  private adopt(socket: Socket, known?: Flow): void {
    const flow: Flow = known ?? {
      protocol: 'tcp',
      host: socket.remoteAddress?.replace(/^::ffff:/, '') ?? '',
      port: socket.remotePort ?? 0,
    };
    const key = flowKey(flow);
    this.connections.set(key, socket);
    let buffer: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      try {
        const { messages, rest } = splitStream(buffer);
        buffer = rest;
        for (const message of messages) this.deliver(message, flow);
      } catch (error) {
        this.onError(error instanceof Error ? error : new Error(String(error)));
        socket.destroy();
      }
    });
    socket.on('error', (error) => this.onError(error));
    socket.on('close', () => {
      if (this.connections.get(key) === socket) this.connections.delete(key);
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
    this.trace?.('in', message, flow);
    this.listener(message, flow);
  }
}
