/**
 * Two instances of the service (node dist/main.js) on one PostgreSQL behind Kamailio's dispatcher,
 * configured by the file docs show (docs/kamailio/dispatcher.cfg): calls from the carrier (a
 * hand-driven SIP peer) spread over both; one instance is stopped for a deploy (SIGTERM) with calls
 * going: its calls go on to their end (their audio still flowing), new calls all go to the other
 * one, and it exits once its last call has ended. No call is lost: every call is answered and every
 * session ends `completed`.
 */
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { createFundedTenant } from '../../support/funded-tenant';
import { type Kamailio, startKamailioDispatcher } from '../../support/kamailio';
import { makeDataDir, type ServiceProcess, startService } from '../../support/process';
import {
  answeredPort,
  assignAnsweringNumber,
  invite,
  MeasuredRtp,
  type Received,
  SipPeer,
  startTrunkedService,
} from '../../support/sip-peer';
import { freeUdpPort } from '../../support/sipp';
import type { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

const NUMBER = '+14155550401';
let h: CallsService;
let a: { svc: ServiceProcess; sipPort: number };
let b: { svc: ServiceProcess; sipPort: number };
let proxy: Kamailio;
let tenant: TenantInfo;
const closers: (() => void)[] = [];

beforeAll(async () => {
  const shared = { DRAIN_TIMEOUT: '60s', SIP_MAX_CALLS: '50', TENANT_MAX_CALLS: '50' };
  const first = await startTrunkedService(10, shared);
  h = first.h;
  a = { svc: h.svc, sipPort: first.sipPort };
  closers.push(() => first.trunk.close());
  const sipPort = await freeUdpPort();
  const rtpFirst = await freeUdpPort(true);
  const svc = await startService({
    env: {
      ...h.env,
      DATA_DIR: makeDataDir(),
      SIP_LISTEN: `127.0.0.1:${sipPort}`,
      RTP_PORTS: `${rtpFirst}-${rtpFirst + 19}`,
    },
    adminToken: h.svc.adminToken,
  });
  b = { svc, sipPort };
  proxy = await startKamailioDispatcher([a.sipPort, b.sipPort]);
  tenant = await createFundedTenant(h, 'Two Instances Co');
  await assignAnsweringNumber(h, tenant, NUMBER);
  // Both probed up (OPTIONS each second).
  await new Promise((r) => setTimeout(r, 2_500));
});

afterAll(async () => {
  for (const close of closers) close();
  await proxy?.stop();
  if (b && !b.svc.hasExited()) b.svc.kill('SIGKILL');
  await stopCallsSuite(h);
});

interface Call {
  /** The instance that answered: its SIP port, from the 200's Contact. */
  instancePort: number;
  ok: Received;
  peer: SipPeer;
  rtp: MeasuredRtp;
  hangUp(): Promise<void>;
}

/** A call from the carrier through Kamailio: answered by one of the instances and acknowledged there. */
async function callThroughProxy(): Promise<Call> {
  const peer = await SipPeer.open('127.0.0.1');
  closers.push(() => peer.close());
  const rtp = await MeasuredRtp.open();
  closers.push(() => rtp.close());
  const inv = invite({ to: NUMBER, peer, media: { host: '127.0.0.1', port: rtp.port } });
  peer.send(inv.text, proxy.port);
  const ok = await peer.waitFor((m) => m.method === 'INVITE' && m.status >= 200, 15_000);
  if (!ok || ok.status !== 200)
    throw new Error(
      `the call was not answered: ${peer.received.map((m) => m.status).join(',')}\n${proxy.output().slice(-3000)}`,
    );
  const instancePort = Number(/:(\d+)(?:;[^>]*)?>/.exec(ok.header('Contact') ?? '')?.[1] ?? 0);
  // In the dialog, straight to the instance that answered (its Contact).
  peer.send(inv.ack(ok), instancePort);
  rtp.talkTo(answeredPort(ok));
  return {
    instancePort,
    ok,
    peer,
    rtp,
    hangUp: async () => {
      peer.send(inv.bye(ok), instancePort);
      const done = await peer.waitFor((m) => m.method === 'BYE' && m.status === 200, 10_000);
      if (!done) throw new Error('no 200 to the BYE');
    },
  };
}

const sessions = async (): Promise<{ session_id: string; status: string }[]> =>
  (await h.call('GET', '/v1/sessions?direction=inbound&limit=100', { token: tenant.api_key })).body.data;

describe('two instances behind kamailio', () => {
  it('spreads calls over both; one stopped for a deploy finishes its calls, takes no new one, then exits; no call is lost', async () => {
    const before = await Promise.all([0, 1, 2, 3].map(() => callThroughProxy()));
    const onA = before.filter((c) => c.instancePort === a.sipPort);
    const onB = before.filter((c) => c.instancePort === b.sipPort);
    console.log(`before the stop: ${onA.length} calls on A, ${onB.length} on B`);
    expect(onA.length + onB.length).toBe(4);
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);

    // A deploy stops A: it drains.
    a.svc.kill('SIGTERM');
    await eventually(async () => (await a.svc.fetch('/ready')).status === 503, 10_000);
    expect(((await (await a.svc.fetch('/ready')).json()) as { status: string }).status).toBe('draining');
    const after = await Promise.all([0, 1, 2].map(() => callThroughProxy()));
    expect(after.map((c) => c.instancePort)).toEqual([b.sipPort, b.sipPort, b.sipPort]);

    // A's calls go on: the agent's audio still reaches the caller.
    const counted = onA.map((c) => c.rtp.arrivals.length);
    await new Promise((r) => setTimeout(r, 1_000));
    onA.forEach((c, i) => expect(c.rtp.arrivals.length - (counted[i] ?? 0)).toBeGreaterThan(30));
    expect(a.svc.hasExited()).toBe(false);

    // Its last call ends: A exits, cleanly.
    for (const call of onA) await call.hangUp();
    const exit = await a.svc.waitForExit(30_000);
    expect(exit.code).toBe(0);

    // Nothing lost: every call answered, every session ends completed (B carries on).
    for (const call of [...onB, ...after]) await call.hangUp();
    h.svc = b.svc;
    const all = await eventually(async () => {
      const list = await sessions();
      return list.length === 7 && list.every((s) => s.status === 'completed') ? list : false;
    }, 30_000);
    expect(all).toHaveLength(7);
  });
});
