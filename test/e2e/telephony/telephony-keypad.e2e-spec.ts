/**
 * The keypad on real calls (docs/telephony.md, "Keys"): the service (node dist/main.js) with the
 * built-in agent and the embedded engines. A caller (SIPp) presses 9 as an RFC 4733 event; a callee
 * (SIPp, offering no telephone-event) plays keys as tones in its audio (sox's dual tones, 8 kHz
 * μ-law). Either way the session's transcript holds a user turn with the keys and no words, and the
 * agent answers "You pressed …".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { SIPP_SCENARIOS, type SippRun, startSipp } from '../../support/sipp';
import type { TenantInfo } from '../../support/webhooks-harness';
import { startTelephonyService } from '../../support/telephony-service';

jest.setTimeout(240_000);

const OUR_NUMBER = '+14155550188';
const INBOUND_NUMBER = '+14155550166';
const dir = mkdtempSync(join(tmpdir(), 'tel-keypad-'));
let h: CallsService;
let tenant: TenantInfo;
let trunkPort: number;
let listenPort: number;

beforeAll(async () => {
  ({ h, tenant, trunkPort, listenPort } = await startTelephonyService('Keypad Co', [OUR_NUMBER]));
});

afterAll(async () => {
  await stopCallsSuite(h);
  rmSync(dir, { recursive: true, force: true });
});

async function sippPassed(run: SippRun): Promise<void> {
  const result = await run.done;
  if (result.code !== 0)
    throw new Error(`SIPp failed (${result.code}):\n${result.errors}\n${result.output.slice(-3000)}`);
}

async function ended(find: () => Promise<any>): Promise<any> {
  let session: any;
  await eventually(async () => {
    session = await find();
    return session?.ended_at != null;
  }, 60_000).catch(() => {
    throw new Error(`session never ended: ${JSON.stringify(session)}\n${h.diagnostics()}`);
  });
  return session;
}

const keyTurns = (session: any): any[] => session.transcript.filter((t: any) => t.dtmf !== undefined);
const agentLines = (session: any): string[] =>
  session.transcript.filter((t: any) => t.role === 'agent').map((t: any) => t.content);

it('a caller presses 9 (RFC 4733): a keypad turn, and the agent answers "You pressed 9."', async () => {
  const assigned = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/phone_numbers`, {
    token: h.svc.adminToken,
    body: { phone_number: INBOUND_NUMBER, agent_config: { prompt: 'Answer.', first_message: 'Hello.' } },
  });
  expect(assigned.status).toBe(201);
  const caller = await startSipp({
    scenario: 'uac-inbound-keys.xml',
    target: `127.0.0.1:${listenPort}`,
    service: INBOUND_NUMBER,
    rtpEcho: true,
  });
  await sippPassed(caller);
  const session = await ended(async () => {
    const list = (await h.call('GET', '/v1/sessions?direction=inbound', { token: tenant.api_key })).body.data as any[];
    const found = list.find((s) => s.to_number === INBOUND_NUMBER);
    return found && (await h.call('GET', `/v1/sessions/${found.session_id}`, { token: tenant.api_key })).body;
  });
  expect(keyTurns(session)).toEqual([{ role: 'user', content: '', dtmf: '9', t: expect.any(Number) }]);
  expect(agentLines(session)).toContain('You pressed 9.');
  expect(session).toMatchObject({ status: 'completed', end_reason: 'completed' });
});

it('a callee whose line carries keys only as tones in the audio: 4, 2 and # are heard as one keypad turn', async () => {
  // 7 s of silence (no answer in 5 s: the agent greets as to a person), then 4, 2, # as 120 ms dual
  // tones 80 ms apart, then silence.
  const tone = (name: string, low: number, high: number): string => {
    const path = join(dir, `${name}.wav`);
    execFileSync('sox', [
      '-n',
      '-r',
      '8000',
      '-c',
      '1',
      '-b',
      '16',
      path,
      'synth',
      '0.12',
      'sin',
      `${low}`,
      'sin',
      `${high}`,
      'gain',
      '-9',
      'pad',
      '0',
      '0.08',
    ]);
    return path;
  };
  const silence = (seconds: number, name: string): string => {
    const path = join(dir, `${name}.wav`);
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', path, 'trim', '0', `${seconds}`]);
    return path;
  };
  const audio = join(dir, 'keys.ul');
  execFileSync('sox', [
    silence(7, 'lead'),
    tone('4', 770, 1209),
    tone('2', 697, 1336),
    tone('hash', 941, 1477),
    silence(6, 'tail'),
    '-t',
    'ul',
    '-r',
    '8000',
    '-c',
    '1',
    audio,
  ]);
  const scenario = join(dir, 'uas-speech-bye.xml');
  writeFileSync(
    scenario,
    readFileSync(join(SIPP_SCENARIOS, 'uas-speech-bye.xml'), 'utf8')
      .replace('CALLER_AUDIO,', `${audio},`)
      .replace('"HANGUP_AFTER"', '"13000"'),
  );
  const callee = await startSipp({ scenario, port: trunkPort, timeoutSeconds: 60 });
  const placed = await h.call('POST', '/v1/calls', {
    token: tenant.api_key,
    body: {
      to: '+14155550177',
      from: OUR_NUMBER,
      agent_config: { prompt: 'Answer.', first_message: 'Hello.' },
      test_mode: false,
    },
  });
  expect(placed.status).toBe(201);
  const id = placed.body.session_id as string;
  await sippPassed(callee);
  const session = await ended(async () => (await h.call('GET', `/v1/sessions/${id}`, { token: tenant.api_key })).body);
  expect(keyTurns(session)).toEqual([{ role: 'user', content: '', dtmf: '42#', t: expect.any(Number) }]);
  expect(agentLines(session)).toContain('You pressed 4 2 pound.');
});
