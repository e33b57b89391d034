/**
 * Capacity end to end (docs/capacity.md): the service (node dist/main.js) with a trunk played by a
 * hand-driven SIP peer on 127.0.0.1 and MAX_CONVERSATIONS=3. More inbound calls are offered than it
 * carries: three are answered, the rest refused `503` with `Retry-After` and no session; the admitted
 * calls' audio is measured by the test's own RTP sockets (packets and their spacing); /ready and
 * /metrics say what it carries; a room's offer meanwhile is `503 at_capacity`; a call that ends makes
 * room for the next. CAPACITY_HEADROOM=off here: the measured headroom is covered by the unit specs
 * (src/conversations/capacity), and a loaded CI machine must not make this test's counts vary.
 */
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { createFundedTenant } from '../../support/funded-tenant';
import { CANNED_OFFER } from '../../support/rooms-harness';
import {
  answeredPort,
  assignAnsweringNumber,
  invite,
  MeasuredRtp,
  metricOf,
  type Received,
  SipPeer,
  startTrunkedService,
} from '../../support/sip-peer';
import type { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(120_000);

const NUMBER = '+14155550301';
const CAPACITY = 3;
let h: CallsService;
let sipPort: number;
let trunk: SipPeer;
let tenant: TenantInfo;
const closers: (() => void)[] = [];

beforeAll(async () => {
  ({ h, trunk, sipPort } = await startTrunkedService(20, {
    MAX_CONVERSATIONS: String(CAPACITY),
    CAPACITY_HEADROOM: 'off',
    SIP_MAX_CALLS: '50',
    SIP_CPS: '50',
    TENANT_MAX_CALLS: '50',
  }));
  tenant = await createFundedTenant(h, 'Capacity Co');
  await assignAnsweringNumber(h, tenant, NUMBER);
});

afterAll(async () => {
  for (const close of closers) close();
  trunk.close();
  await stopCallsSuite(h);
});

interface Offered {
  peer: SipPeer;
  rtp: MeasuredRtp;
  inv: ReturnType<typeof invite>;
  final: Received;
}

/** Offers one inbound call from the trunk's address; resolves with its final answer. */
async function offerCall(): Promise<Offered> {
  const peer = await SipPeer.open('127.0.0.1');
  closers.push(() => peer.close());
  const rtp = await MeasuredRtp.open();
  closers.push(() => rtp.close());
  const inv = invite({ to: NUMBER, peer, media: { host: '127.0.0.1', port: rtp.port } });
  peer.send(inv.text, sipPort);
  const final = await peer.waitFor((m) => m.method === 'INVITE' && m.status >= 200, 15_000);
  if (!final) throw new Error(`no final answer: ${peer.received.map((m) => m.status).join(',')}\n${h.diagnostics()}`);
  return { peer, rtp, inv, final };
}

const metric = (name: string) => metricOf(h, name);

const inboundSessions = async (): Promise<number> =>
  ((await h.call('GET', '/v1/sessions?direction=inbound&limit=100', { token: tenant.api_key })).body.data as unknown[])
    .length;

describe('more calls offered than the instance carries', () => {
  it('answers MAX_CONVERSATIONS of them, refuses the rest 503 with Retry-After, and keeps the admitted calls’ audio flowing', async () => {
    const offered = await Promise.all(Array.from({ length: CAPACITY + 3 }, () => offerCall()));
    const statuses = offered.map((o) => o.final.status).sort();
    expect(statuses).toEqual([200, 200, 200, 503, 503, 503]);
    const admitted = offered.filter((o) => o.final.status === 200);
    for (const refused of offered.filter((o) => o.final.status === 503)) {
      expect(refused.final.header('Retry-After')).toBe('5');
      // The 503 is acknowledged by the peer (its transaction's ACK), as a real one would.
      refused.peer.send(
        refused.inv.ack(refused.final).replace(/branch=[^\r\n;]+/, `branch=${refused.inv.branch}`),
        sipPort,
      );
    }
    for (const call of admitted) {
      call.peer.send(call.inv.ack(call.final), sipPort);
      call.rtp.talkTo(answeredPort(call.final));
    }

    // What it carries, where an operator and a proxy look.
    const ready = await h.call('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.conversations).toEqual({ active: CAPACITY, capacity: CAPACITY, admitting: false });
    expect((await metric('conversations_active')).get('')).toBe(CAPACITY);
    expect((await metric('conversations_capacity')).get('')).toBe(CAPACITY);
    expect((await metric('sip_inbound_refused_total')).get('{limit="capacity"}')).toBe(3);

    // A room's offer meanwhile: refused too, with the contract's error.
    const room = (await h.call('POST', '/v1/rooms', { token: tenant.api_key, body: {} })).body as { room_url: string };
    const url = new URL(room.room_url);
    const joined = await fetch(`${h.svc.baseUrl}${url.pathname}/whip${url.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: CANNED_OFFER,
    });
    expect(joined.status).toBe(503);
    expect(joined.headers.get('retry-after')).toBe('5');
    expect(((await joined.json()) as { error: { type: string } }).error.type).toBe('at_capacity');

    // A test persona call (conversed on this instance) is refused at its placement.
    const persona = await h.call('POST', '/v1/calls', {
      token: tenant.api_key,
      body: {
        to: '+14155550100',
        from: '+14155550000',
        test_mode: true,
        agent_config: { prompt: 'Answer.' },
        test_persona: { script: ['Hi.'] },
      },
    });
    expect({
      status: persona.status,
      retryAfter: persona.headers.get('retry-after'),
      type: persona.body.error?.type,
    }).toEqual({
      status: 503,
      retryAfter: '5',
      type: 'at_capacity',
    });

    // The admitted calls' audio, measured here: the agent's packets come every 20 ms on each.
    const from = performance.now();
    await new Promise((r) => setTimeout(r, 3_000));
    for (const call of admitted) {
      const gaps = call.rtp.gapsSince(from);
      const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
      const sorted = [...gaps].sort((a, b) => a - b);
      const p99 = sorted[Math.floor(0.99 * (sorted.length - 1))] ?? 0;
      console.log(
        `admitted call: ${gaps.length + 1} packets in 3 s, spacing mean ${mean.toFixed(2)} ms, p99 ${p99.toFixed(1)} ms`,
      );
      expect(gaps.length).toBeGreaterThan(120);
      expect(Math.abs(mean - 20)).toBeLessThan(2);
    }
    // The refused calls made no session; the admitted ones did.
    expect(await inboundSessions()).toBe(CAPACITY);

    // One ends: its place is free, and the next call is answered.
    const first = admitted[0] as Offered;
    first.rtp.stopTalking();
    first.peer.send(first.inv.bye(first.final), sipPort);
    expect(await first.peer.waitFor((m) => m.method === 'BYE' && m.status === 200, 10_000)).not.toBeNull();
    await eventually(async () => (await metric('conversations_active')).get('') === CAPACITY - 1, 10_000);
    const next = await offerCall();
    expect(next.final.status).toBe(200);
    next.peer.send(next.inv.ack(next.final), sipPort);
    next.peer.send(next.inv.bye(next.final), sipPort);
    for (const call of admitted.slice(1)) call.peer.send(call.inv.bye(call.final), sipPort);
    await eventually(async () => (await metric('conversations_active')).get('') === 0, 20_000);
    expect((await h.call('GET', '/ready')).body.conversations).toEqual({
      active: 0,
      capacity: CAPACITY,
      admitting: true,
    });
  });
});

describe('who is answered at all', () => {
  it('a suspended tenant’s number answers 403 before anything is set up, and makes no session', async () => {
    const suspended = await createFundedTenant(h, 'Suspended Co');
    await assignAnsweringNumber(h, suspended, '+14155550302');
    const res = await h.call('POST', `/admin/v1/tenants/${suspended.tenant_id}/suspend`, { token: h.svc.adminToken });
    expect(res.status).toBe(200);
    const peer = await SipPeer.open('127.0.0.1');
    closers.push(() => peer.close());
    const inv = invite({ to: '+14155550302', peer, media: { host: '127.0.0.1', port: 40_000 } });
    // The tenants' lookup is cached a moment: the suspension reaches it within its expiry.
    const final = await eventually(async () => {
      peer.received.length = 0;
      peer.send(inv.text.replace(/Call-ID: \S+/, `Call-ID: ${Math.random().toString(16).slice(2)}@peer`), sipPort);
      const answer = await peer.waitFor((m) => m.method === 'INVITE' && m.status >= 200, 5_000);
      return answer?.status === 403 ? answer : false;
    }, 30_000);
    expect(final.status).toBe(403);
    const { rows } = await h.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sessions WHERE tenant_id = $1',
      [suspended.tenant_id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('outbound calls when the instance is full', () => {
  /** Answers the service's INVITEs on the trunk as they come (200 with an SDP); returns the answered ones. */
  function answerOutbound(): { answered: Received[]; stop: () => void } {
    const answered: Received[] = [];
    let stopped = false;
    const seen = new Set<string>();
    const loop = async (): Promise<void> => {
      while (!stopped) {
        const inv = await trunk.waitFor(
          (m) => m.method === 'INVITE' && m.status === 0 && !seen.has(m.header('Call-ID') ?? ''),
          250,
        );
        if (!inv) continue;
        seen.add(inv.header('Call-ID') ?? '');
        answered.push(inv);
        const rtp = await MeasuredRtp.open();
        closers.push(() => rtp.close());
        const body = [
          'v=0',
          'o=trunk 1 1 IN IP4 127.0.0.1',
          's=-',
          'c=IN IP4 127.0.0.1',
          't=0 0',
          `m=audio ${rtp.port} RTP/AVP 0`,
          'a=rtpmap:0 PCMU/8000',
          '',
        ].join('\r\n');
        const ok = [
          'SIP/2.0 200 OK',
          ...inv.headers('Via').map((v) => `Via: ${v}`),
          `From: ${inv.header('From') ?? ''}`,
          `To: ${inv.header('To') ?? ''};tag=trunk${answered.length}`,
          `Call-ID: ${inv.header('Call-ID') ?? ''}`,
          `CSeq: ${inv.header('CSeq') ?? ''}`,
          `Contact: <sip:trunk@127.0.0.1:${trunk.port}>`,
          'Content-Type: application/sdp',
          `Content-Length: ${Buffer.byteLength(body)}`,
          '',
          body,
        ].join('\r\n');
        trunk.send(ok, inv.from.port, inv.from.address);
        rtp.talkTo(Number(/^m=audio (\d+)/m.exec(inv.body)?.[1] ?? 0));
      }
    };
    void loop();
    return { answered, stop: () => (stopped = true) };
  }

  /** The trunk hangs up an answered call (a BYE in its dialog). */
  function byeFromTrunk(inv: Received, n: number): void {
    const contact = /<([^>]+)>/.exec(inv.header('Contact') ?? '')?.[1] ?? '';
    const bye = [
      `BYE ${contact} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${trunk.port};branch=z9hG4bKbye${n}${Date.now()}`,
      `From: ${inv.header('To') ?? ''};tag=trunk${n}`,
      `To: ${inv.header('From') ?? ''}`,
      `Call-ID: ${inv.header('Call-ID') ?? ''}`,
      'CSeq: 1 BYE',
      'Max-Forwards: 70',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    trunk.send(bye, inv.from.port, inv.from.address);
  }

  it('the calls over capacity wait, held `capacity`, and go out as places free', async () => {
    const trunkAnswers = answerOutbound();
    closers.push(trunkAnswers.stop);
    const place = async (to: string): Promise<string> => {
      const res = await h.call('POST', '/v1/calls', {
        token: tenant.api_key,
        body: { to, from: NUMBER, agent_config: { prompt: 'Call.', first_message: 'Hello.' } },
      });
      expect(res.status).toBe(201);
      return res.body.session_id as string;
    };
    const ids: string[] = [];
    for (const to of ['+14155550311', '+14155550312', '+14155550313', '+14155550314']) ids.push(await place(to));
    await eventually(() => trunkAnswers.answered.length === CAPACITY, 20_000);
    const session = async (id: string) => (await h.call('GET', `/v1/sessions/${id}`, { token: tenant.api_key })).body;
    // The fourth waits, and says why.
    const waiting = await eventually(async () => {
      const all = await Promise.all(ids.map(session));
      const held = all.filter((s) => s.hold_reason === 'capacity');
      return held.length === 1 ? held[0] : false;
    }, 20_000);
    expect(waiting.status).toBe('queued');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(trunkAnswers.answered).toHaveLength(CAPACITY);
    // One call ends at the trunk: the waiting one goes out, and no longer says it waits.
    byeFromTrunk(trunkAnswers.answered[0] as Received, 1);
    await eventually(() => trunkAnswers.answered.length === CAPACITY + 1, 20_000);
    const released = await eventually(async () => {
      const s = await session(waiting.session_id);
      return s.hold_reason === null ? s : false;
    }, 20_000);
    expect(released.status).not.toBe('queued');
    expect(
      (await metric('conversations_refused_total')).get('{kind="phone_outbound",reason="max_conversations"}'),
    ).toBeGreaterThan(0);
    trunkAnswers.stop();
    trunkAnswers.answered.slice(1).forEach((inv, i) => byeFromTrunk(inv, i + 2));
    await eventually(async () => (await metric('conversations_active')).get('') === 0, 20_000);
  });
});
