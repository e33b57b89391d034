/**
 * The SIP port and the RTP range under fuzzing (docs/security.md, "SIP and RTP"), in the spirit of the
 * OpenAPI fuzz: the service (node dist/main.js) with a trunk on 127.0.0.1 receives more than 10,000
 * mutated SIP messages (UDP and TCP, SDP bodies included) and RTP packets, from the allowed address
 * and from a stranger (127.0.0.5), while real calls are placed into it, answered, acknowledged or not,
 * fed mutated media and hung up. Afterwards the service is up, no session is left in progress, the
 * user agent holds nothing of any call (its state gauges at 0) and the heap is back near its baseline.
 * Deterministic for a seed (fixed by default, printed): `FUZZ_SEED=<n>` runs another one, or replays a
 * failure (three random seeds passed when this was written: 1131257499, 1848556707, 544225281).
 */
import { connect } from 'node:net';
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { createFundedTenant } from '../../support/funded-tenant';
import {
  answeredPort,
  assignAnsweringNumber,
  invite,
  metricOf,
  offer,
  type Received,
  SipPeer,
  startTrunkedService,
} from '../../support/sip-peer';
import type { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(420_000);

/** A fixed seed by default, as the OpenAPI fuzz: CI runs the same messages every time. */
const DEFAULT_SEED = 20_261_128;
const SEED = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const NUMBERS = ['+14155550301', '+14155550302'];
const RTP_PAIRS = 100;

/** mulberry32: a small seeded generator, so that a failing run can be replayed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

const rnd = generator(SEED);

const EXTREMES = ['0', '-1', '65535', '65536', '4294967296', '99999999999999999999', '', '1e9', '0x10', 'NaN'];
const TOKENS = ['INVITE', 'ACK', 'BYE', 'CANCEL', 'OPTIONS', 'REFER', 'NOTIFY', 'REGISTER', 'SUBSCRIBE', 'INFO', 'X'];
const ADDRESSES = [
  '127.0.0.1',
  '127.0.0.9',
  '0.0.0.0',
  '239.0.0.1',
  '255.255.255.255',
  'example.com',
  '::1',
  '10.0.0.1',
  '999.1.1.1',
  '',
];

/** Valid messages of every kind the user agent meets, before mutation. */
function seedMessage(peer: { address: string; port: number }): string {
  const to = rnd.pick([...NUMBERS, '+14155550999', 'x', '']);
  const base = invite({
    to,
    peer,
    media: { host: rnd.pick(ADDRESSES), port: rnd.pick([40000, 0, 1, 65534, 65535, 70000]) },
  });
  switch (rnd.int(7)) {
    case 0:
      return base.text;
    case 1:
      return base.text.replace(/^INVITE/, rnd.pick(TOKENS)).replace('CSeq: 1 INVITE', `CSeq: 1 ${rnd.pick(TOKENS)}`);
    case 2:
      return base.text.replace(/v=0[\s\S]*$/, sdpVariant());
    case 3: {
      const fake = { status: 200, header: () => `<sip:${to}@127.0.0.1>;tag=${rnd.int(1000)}` } as unknown as Received;
      return rnd.next() < 0.5 ? base.ack(fake) : base.bye(fake);
    }
    case 4:
      return [
        `SIP/2.0 ${rnd.pick([100, 180, 200, 401, 407, 486, 999])} Whatever`,
        `Via: SIP/2.0/UDP 127.0.0.1:${peer.port};branch=z9hG4bK${rnd.int(1e9)}`,
        'From: <sip:a@b>;tag=1',
        'To: <sip:c@d>;tag=2',
        `Call-ID: ${rnd.int(1e9)}@x`,
        `CSeq: 1 ${rnd.pick(TOKENS)}`,
        `WWW-Authenticate: Digest realm="r", nonce="n", algorithm=${rnd.pick(['MD5', 'SHA-256', 'SHA-512-256', 'X'])}`,
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n');
    case 5:
      return `OPTIONS sip:x@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:${peer.port};branch=z9hG4bKo${rnd.int(1e9)}\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:x@127.0.0.1>\r\nCall-ID: o${rnd.int(1e9)}\r\nCSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n`;
    default:
      return Buffer.from(Array.from({ length: rnd.int(300) }, () => rnd.int(256))).toString('latin1');
  }
}

function sdpVariant(): string {
  const host = rnd.pick(ADDRESSES);
  const lines = offer(host, rnd.pick([40000, 0, 65535, 2 ** 31])).split('\r\n');
  switch (rnd.int(5)) {
    case 0:
      return lines.filter((l) => !l.startsWith('c=')).join('\r\n');
    case 1:
      return lines
        .map((l) =>
          l.startsWith('m=') ? `m=audio 40000 RTP/AVP ${Array.from({ length: 500 }, (_, i) => i).join(' ')}` : l,
        )
        .join('\r\n');
    case 2:
      return [...lines, ...Array.from({ length: 50 }, () => `m=audio ${rnd.int(70000)} RTP/AVP 0`)].join('\r\n');
    case 3:
      return lines.map((l) => (l.startsWith('c=') ? `c=IN IP6 ${host}` : l)).join('\r\n');
    default:
      return lines.join('\n');
  }
}

/** One mutation of `text`, as bytes. */
function mutate(text: string): Buffer {
  let out = text;
  const rounds = 1 + rnd.int(3);
  for (let r = 0; r < rounds; r++) {
    const lines = out.split('\r\n');
    switch (rnd.int(11)) {
      case 0: {
        const bytes = Buffer.from(out, 'latin1');
        for (let i = 0; i < 1 + rnd.int(8) && bytes.length; i++) bytes[rnd.int(bytes.length)] = rnd.int(256);
        out = bytes.toString('latin1');
        break;
      }
      case 1:
        out = out.slice(0, rnd.int(out.length + 1));
        break;
      case 2: {
        const at = rnd.int(lines.length);
        lines.splice(at, 0, ...Array<string>(1 + rnd.int(40)).fill(lines[at] ?? ''));
        out = lines.join('\r\n');
        break;
      }
      case 3:
        lines.splice(rnd.int(lines.length), 1);
        out = lines.join('\r\n');
        break;
      case 4:
        out = out.replace(/\d+/g, (m) => (rnd.next() < 0.2 ? rnd.pick(EXTREMES) : m));
        break;
      case 5: {
        const at = 1 + rnd.int(Math.max(1, lines.length - 1));
        lines[at] = `${(lines[at] ?? 'X').split(':')[0]}: ${'a'.repeat(rnd.pick([300, 5000, 20000, 60000]))}`;
        out = lines.join('\r\n');
        break;
      }
      case 6:
        out = out.replace('\r\n\r\n', rnd.pick(['\r\n', '\n\n', '', '\r\n\r\n\r\n\r\n']));
        break;
      case 7:
        out = out.replace(/Content-Length: \d+/i, `Content-Length: ${rnd.pick(EXTREMES)}`);
        break;
      case 8:
        out = out.replace(/[<>;=@:"]/g, (m) =>
          rnd.next() < 0.1 ? rnd.pick(['', '<', '>', '"', ';;', '\\', '\u0000']) : m,
        );
        break;
      case 9:
        out = `${out}${'\u00ff\u00fe'.repeat(rnd.int(50))}`;
        break;
      default:
        out = rnd.pick(['', '\r\n', '\r\n\r\n', ' ', 'SIP/2.0', 'INVITE']);
    }
  }
  return Buffer.from(out.slice(0, 65_000), 'latin1');
}

/** A mutated RTP packet: headers that lie about their length, odd payload types, empty payloads. */
function rtpPacket(): Buffer {
  const length = rnd.pick([0, 1, 11, 12, 13, 28, 172, 200, 1400, rnd.int(1500)]);
  const packet = Buffer.alloc(length);
  for (let i = 0; i < length; i++) packet[i] = rnd.int(256);
  if (length >= 2 && rnd.next() < 0.8) {
    packet[0] = (2 << 6) | (rnd.next() < 0.2 ? 0x20 : 0) | (rnd.next() < 0.2 ? 0x10 : 0) | rnd.int(16);
    packet[1] = (rnd.next() < 0.3 ? 0x80 : 0) | rnd.pick([0, 8, 101, 13, 127, rnd.int(128)]);
  }
  return packet;
}

let h: CallsService;
let sipPort: number;
let rtpFirst: number;
let trunk: SipPeer;
let tenant: TenantInfo;

beforeAll(async () => {
  ({ h, trunk, sipPort, rtpFirst } = await startTrunkedService(RTP_PAIRS, {
    TENANT_MAX_CALLS: '12',
    LOG_LEVEL: 'error',
  }));
  tenant = await createFundedTenant(h, 'Fuzzed', 100_000);
  for (const number of NUMBERS) await assignAnsweringNumber(h, tenant, number);
});

afterAll(async () => {
  trunk.close();
  await stopCallsSuite(h);
});

const metric = (name: string) => metricOf(h, name);

const heapUsed = async (): Promise<number> => (await metric('process_heap_used_bytes')).get('') ?? 0;

/** A real call into the service, answered, fed mutated media, and ended in one of the ways a peer can. */
async function call(peer: SipPeer, counts: { rtp: number; answered: number }): Promise<void> {
  const rtpSocket = await SipPeer.open('127.0.0.1');
  try {
    const inv = invite({ to: rnd.pick(NUMBERS), peer, media: { host: '127.0.0.1', port: rtpSocket.port } });
    peer.send(inv.text, sipPort);
    const ok = await peer.waitFor((m) => m.header('Call-ID') === inv.callId && m.status >= 200, 8000);
    if (!ok || ok.status !== 200) return;
    counts.answered++;
    const way = rnd.int(4);
    if (way === 0) return; // never acknowledged: Timer H ends it with a BYE
    peer.send(way === 1 ? mutate(inv.ack(ok)).toString('latin1') : inv.ack(ok), sipPort);
    const port = answeredPort(ok);
    for (let i = 0; i < 40; i++) {
      rtpSocket.socket.send(rtpPacket(), port, '127.0.0.1');
      counts.rtp++;
    }
    await new Promise((r) => setTimeout(r, rnd.int(800)));
    peer.send(inv.bye(ok), sipPort);
    await peer.waitFor((m) => m.header('Call-ID') === inv.callId && m.method === 'BYE', 5000);
  } finally {
    rtpSocket.close();
  }
}

it(`stays up under 10,000+ mutated SIP messages and RTP packets, and keeps nothing afterwards (seed ${SEED})`, async () => {
  // Warm up: one clean call, then the baseline.
  const warm = await SipPeer.open('127.0.0.1');
  await call(warm, { rtp: 0, answered: 0 });
  await eventually(async () => !(await inProgress()), 60_000);
  const baseline = await heapUsed();

  const allowed = await SipPeer.open('127.0.0.1');
  const stranger = await SipPeer.open('127.0.0.5');
  const strangerRtp = await SipPeer.open('127.0.0.5');
  const callers = await Promise.all([0, 1, 2].map(() => SipPeer.open('127.0.0.1')));
  const counts = { sip: 0, tcp: 0, rtp: 0, answered: 0 };
  const calls: Promise<void>[] = [];
  for (let round = 0; round < 120; round++) {
    for (let i = 0; i < 50; i++) {
      const from = rnd.next() < 0.7 ? allowed : stranger;
      from.socket.send(mutate(seedMessage({ address: from.address, port: from.port })), sipPort, '127.0.0.1');
      counts.sip++;
    }
    for (let i = 0; i < 35; i++) {
      const port = rtpFirst + rnd.int(2 * RTP_PAIRS);
      (rnd.next() < 0.5 ? allowed : strangerRtp).socket.send(rtpPacket(), port, '127.0.0.1');
      counts.rtp++;
    }
    if (round % 10 === 0) {
      const messages = Array.from({ length: 1 + rnd.int(5) }, () =>
        mutate(seedMessage({ address: '127.0.0.1', port: 5060 })),
      );
      await tcpStream(Buffer.concat(messages), rnd.next() < 0.3 ? '127.0.0.5' : '127.0.0.1');
      counts.tcp += messages.length;
    }
    if (round % 4 === 0) calls.push(call(callers[round % 3]!, counts));
    await new Promise((r) => setTimeout(r, 20));
    expect(h.svc.hasExited()).toBe(false);
  }
  await Promise.all(calls);
  const total = counts.sip + counts.tcp + counts.rtp;
  console.log(
    `seed ${SEED}: ${counts.sip} UDP SIP, ${counts.tcp} TCP SIP, ${counts.rtp} RTP (${total} in all); ${counts.answered} of 30 calls answered`,
  );
  expect(total).toBeGreaterThanOrEqual(10_000);
  // Real calls went on through it all (some are refused: TENANT_MAX_CALLS is 12 here, and calls never
  // acknowledged hold their place for 32 s).
  expect(counts.answered).toBeGreaterThanOrEqual(10);

  // Up and answering.
  expect(h.svc.hasExited()).toBe(false);
  expect((await h.call('GET', '/health')).status).toBe(200);
  // Every session ended (those never acknowledged by Timer H within 32 s).
  await eventually(async () => !(await inProgress()), 90_000).catch(async () => {
    throw new Error(`sessions left in progress (seed ${SEED}): ${JSON.stringify(await inProgress())}`);
  });
  // Nothing of any call outlives it: every state gauge back to 0 (calls are kept 32 s after their end).
  let state = new Map<string, number>();
  await eventually(
    async () => {
      state = await metric('sip_state_entries');
      return state.size > 0 && [...state.values()].every((n) => n === 0);
    },
    90_000,
    1000,
  ).catch(() => {
    throw new Error(`state left (seed ${SEED}): ${JSON.stringify([...state])}`);
  });
  // The heap back near its baseline (garbage aside: the service lets it grow 50 % over what is live).
  let heap = 0;
  await eventually(
    async () => {
      heap = await heapUsed();
      return heap <= Math.max(baseline * 1.5, baseline + 25 * 2 ** 20);
    },
    60_000,
    1000,
  ).catch(() => {
    throw new Error(`heap ${heap} against a baseline of ${baseline} (seed ${SEED})`);
  });
  for (const p of [warm, allowed, stranger, strangerRtp, ...callers]) p.close();
});

/** Sessions not ended yet (inbound ones: every session here is), or false when there are none. */
async function inProgress(): Promise<false | unknown[]> {
  const list: { session_id: string; status: string; ended_at: string | null }[] = [];
  for (let after = ''; ;) {
    const page = (
      await h.call('GET', `/v1/sessions?direction=inbound&limit=100${after ? `&starting_after=${after}` : ''}`, {
        token: tenant.api_key,
      })
    ).body as { data: typeof list; has_more: boolean };
    list.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
    after = page.data[page.data.length - 1]!.session_id;
  }
  const open = list.filter((s) => s.ended_at === null);
  return open.length ? open.map((s) => [s.session_id, s.status]) : false;
}

/** Writes `data` over a TCP connection from `from` in random pieces; resolves once it is closed. */
function tcpStream(data: Buffer, from: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: sipPort, localAddress: from });
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.on('connect', () => {
      void (async () => {
        let at = 0;
        while (at < data.length && !socket.destroyed) {
          const size = 1 + rnd.int(4096);
          socket.write(data.subarray(at, at + size));
          at += size;
          if (rnd.next() < 0.2) await new Promise((r) => setTimeout(r, 5));
        }
        socket.end();
      })();
    });
    socket.on('close', () => resolve());
  });
}
