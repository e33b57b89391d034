/**
 * The carrier's limits through the API (docs/telephony.md, "Carrier limits"): with SIP_CPS=1, five
 * production calls placed at once go out one per second, and every
 * one is answered (SIPp as the trunk answers each and hangs up); the ones that wait say so
 * (`hold_reason: carrier_limit`) and none fails.
 */
import { type CallsService, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { freeUdpPort, startSipp } from '../../support/sipp';
import { createFundedTenant } from '../../support/funded-tenant';
import type { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let h: CallsService;
let trunkPort: number;
let tenant: TenantInfo;

beforeAll(async () => {
  trunkPort = await freeUdpPort();
  const listenPort = await freeUdpPort();
  const rtp = await freeUdpPort(true);
  h = await startCallsService({
    SIP_TRUNK_URI: `sip:127.0.0.1:${trunkPort}`,
    SIP_LISTEN: `127.0.0.1:${listenPort}`,
    RTP_PORTS: `${rtp}-${rtp + 99}`,
    SIP_CPS: '1',
    SIP_MAX_CALLS: '10',
    PAYMENT_PROCESSOR: 'test',
    TOPUP_SETTLE_DELAY: '100ms',
  });
  // Production calls are billed: the tenant has credit (a depleted one's calls wait).
  // Its production calls come from +14155550188, which it must own (decision 178).
  tenant = await createFundedTenant(h, 'Carrier Limits Co', undefined, ['+14155550188']);
});

afterAll(async () => {
  await stopCallsSuite(h);
});

it('paces calls at SIP_CPS, holding the waiting ones (carrier_limit), and fails none', async () => {
  const calls = 5;
  const sipp = await startSipp({ scenario: 'uas-answer-bye.xml', port: trunkPort, calls, timeoutSeconds: 90 });
  const ids: string[] = [];
  for (let i = 0; i < calls; i++) {
    const res = await h.call('POST', '/v1/calls', {
      token: tenant.api_key,
      body: { to: `+1415555020${i}`, from: '+14155550188', agent_config: { prompt: 'Hi.' }, test_mode: false },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.session_id as string);
  }
  // While the last ones wait, they say why.
  const holds = new Set<string>();
  const sessions = await eventually(
    async () => {
      const all = await Promise.all(
        ids.map(async (id) => (await h.call('GET', `/v1/sessions/${id}`, { token: tenant.api_key })).body),
      );
      for (const s of all) if (s.hold_reason) holds.add(`${s.session_id}:${s.hold_reason}`);
      expect(all.every((s) => s.ended_at != null)).toBe(true);
      return all;
    },
    90_000,
    100,
  );
  expect([...holds].some((h) => h.endsWith(':carrier_limit'))).toBe(true);
  // Every call answered and ended by the trunk: none failed, none refused.
  for (const s of sessions) expect(s).toMatchObject({ status: 'completed', hold_reason: null });
  // Started one per second at most. The budget grants in the order the calls first asked it
  // (docs/telephony.md), which is the order placed only when their dispatch timers run one by one:
  // under load one batch of timers runs them together, and they ask in any order.
  const started = sessions.map((s) => Date.parse(s.started_at)).sort((a, b) => a - b);
  for (let i = 1; i < started.length; i++) expect(started[i]! - started[i - 1]!).toBeGreaterThanOrEqual(900);
  expect((await sipp.done).code).toBe(0);
});
