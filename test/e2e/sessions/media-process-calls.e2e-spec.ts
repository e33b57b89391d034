/**
 * kill -9 of the media process during real calls (docs/telephony.md, "The media process"): an API
 * instance (SIP_MEDIA_PROCESS=external) and `node dist/media.js` on one database; two production calls
 * placed through the API are dialled over SIP by the media process to SIPp (answering, echoing RTP,
 * waiting for our BYE), and are in progress when the media process is killed with SIGKILL. The API
 * instance's watchdog ends each `failed` (`media_lost`) with one terminal event, frees its carrier
 * slot, and the ledger debits each call at most once.
 */
import { type CallsService, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { freeUdpPort, type SippRun, startSipp } from '../../support/sipp';
import { createFundedTenant } from '../../support/funded-tenant';
import { expectEachEndedMediaLost, type MediaProcess, startMediaProcess } from '../../support/media-process';
import type { TenantInfo } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

let h: CallsService;
let tenant: TenantInfo;
let media: MediaProcess | null = null;
let sipp: SippRun | null = null;
let trunkPort: number;

beforeAll(async () => {
  trunkPort = await freeUdpPort();
  h = await startCallsService({
    SIP_MEDIA_PROCESS: 'external',
    SIP_MEDIA_LEASE: '3s',
    SIP_TRUNK_URI: `sip:127.0.0.1:${trunkPort}`,
    SIP_CPS: '10',
    PAYMENT_PROCESSOR: 'test',
    TOPUP_SETTLE_DELAY: '100ms',
  });
  // Production calls are billed: the tenant has credit (a depleted one's calls wait).
  // Its production calls come from +14155550188, which it must own (decision 178).
  tenant = await createFundedTenant(h, 'Media Lost Co', undefined, ['+14155550188']);
});

afterAll(async () => {
  media?.child.kill('SIGKILL');
  sipp?.kill();
  if (process.env.MEDIA_DEBUG) console.log(media?.output());
  await stopCallsSuite(h);
});

it('ends the calls of a media process killed mid-call as media_lost, once each, billed at most once', async () => {
  const listen = await freeUdpPort();
  const rtp = await freeUdpPort(true);
  media = startMediaProcess(h, {
    SIP_TRUNK_URI: `sip:127.0.0.1:${trunkPort}`,
    SIP_LISTEN: `127.0.0.1:${listen}`,
    RTP_PORTS: `${rtp}-${rtp + 99}`,
    SIP_MEDIA_LEASE: '3s',
    SIP_CPS: '10',
    PAYMENT_PROCESSOR: 'test',
  });
  await eventually(
    async () => ((await h.db.pool.query('SELECT 1 FROM sip_media_holders')).rowCount ?? 0) > 0,
    30_000,
    100,
  );

  sipp = await startSipp({
    scenario: 'uas-answer-echo.xml',
    port: trunkPort,
    calls: 2,
    rtpEcho: true,
    timeoutSeconds: 120,
  });
  const ids: string[] = [];
  for (const to of ['+14155550301', '+14155550302']) {
    const res = await h.call('POST', '/v1/calls', {
      token: tenant.api_key,
      body: { to, from: '+14155550188', agent_config: { prompt: 'Hi.' }, test_mode: false },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.session_id as string);
  }
  // Both answered over SIP by the media process, and held there.
  for (const id of ids)
    await eventually(
      async () => (await h.call('GET', `/v1/sessions/${id}`, { token: tenant.api_key })).body.status === 'in_progress',
      60_000,
      200,
    ).catch(() => {
      throw new Error(`not answered: ${media?.output().slice(-3000)}`);
    });
  expect((await h.db.pool.query('SELECT 1 FROM sip_call_slots')).rowCount).toBe(2);
  await new Promise((r) => setTimeout(r, 2_000));

  media.child.kill('SIGKILL');
  await expectEachEndedMediaLost(h, tenant.api_key, ids);
  // And at most one debit each.
  for (const id of ids) {
    const debits = await h.db.pool.query(
      `SELECT 1 FROM events WHERE type = 'credits.debited' AND data->>'session_id' = $1`,
      [id],
    );
    expect(debits.rowCount).toBeLessThanOrEqual(1);
  }
});
