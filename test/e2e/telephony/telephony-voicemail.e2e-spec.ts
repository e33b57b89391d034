/**
 * Answering machines on real calls (docs/telephony.md, "Answering machines"): the service (node
 * dist/main.js) calls baresip, which plays a recording and records what it hears. A machine's greeting
 * with a beep gets the agent's `voicemail.message` after the beep, then the call ends `voicemail` with
 * `voicemail_message_left`; a person's "Hello?" gets the agent's greeting. The session says who
 * answered (`amd`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePcm16Wav } from '../../../src/kernel/audio/wav';
import { startBaresip } from '../../support/baresip';
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import type { TenantInfo } from '../../support/webhooks-harness';
import { recognisePhoneAudio } from '../../support/phone-audio';
import { startTelephonyService } from '../../support/telephony-service';

jest.setTimeout(240_000);

const CALLEE = '+14155550177';
const OUR_NUMBER = '+14155550188';
const MESSAGE = 'Hello, this is Ava from Northwind Dental. Please call us back about your appointment. Goodbye.';
const dir = mkdtempSync(join(tmpdir(), 'tel-voicemail-'));
let h: CallsService;
let tenant: TenantInfo;
let trunkPort: number;

beforeAll(async () => {
  ({ h, tenant, trunkPort } = await startTelephonyService('Voicemail Co', [OUR_NUMBER], { baresip: true }));
});

afterAll(async () => {
  await stopCallsSuite(h);
  rmSync(dir, { recursive: true, force: true });
});

/** flite's slt voice saying `text`, 8 kHz mono WAV. */
function spoken(text: string, name: string): string {
  const out = join(dir, `${name}.wav`);
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', join(dir, `${name}16.wav`)]);
  execFileSync('sox', [join(dir, `${name}16.wav`), '-r', '8000', '-c', '1', '-b', '16', out]);
  return out;
}

async function ended(id: string): Promise<any> {
  let last: any;
  await eventually(async () => {
    last = (await h.call('GET', `/v1/sessions/${id}`, { token: tenant.api_key })).body;
    return last.ended_at != null;
  }, 90_000).catch(() => {
    throw new Error(`session never ended: ${JSON.stringify(last)}\n${h.diagnostics()}`);
  });
  return last;
}

async function place(): Promise<string> {
  const res = await h.call('POST', '/v1/calls', {
    token: tenant.api_key,
    body: {
      to: CALLEE,
      from: OUR_NUMBER,
      agent_config: {
        prompt: 'You are Ava of Northwind Dental.',
        first_message: 'Hi, this is Ava from Northwind Dental.',
        voicemail: { message: MESSAGE },
      },
      test_mode: false,
    },
  });
  if (res.status !== 201) throw new Error(`POST /v1/calls: ${res.status} ${res.text}`);
  return res.body.session_id as string;
}

const rms = (s: Int16Array): number => (s.length ? Math.sqrt(s.reduce((a, v) => a + v * v, 0) / s.length) : 0);

it('a machine greeting with a beep: the message is spoken after the beep, the call ends voicemail with the message left', async () => {
  const greeting = spoken(
    'Hi, you have reached John Smith. I cannot take your call right now. Please leave a message after the tone.',
    'greeting',
  );
  const beep = join(dir, 'beep.wav');
  execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', beep, 'synth', '0.5', 'sin', '1000', 'gain', '-6']);
  const machine = join(dir, 'machine.wav');
  // 0.3 s, the greeting, 0.4 s, the beep, then 15 s of silence (the machine records).
  execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', join(dir, 'pause.wav'), 'trim', '0', '0.4']);
  execFileSync('sox', [greeting, join(dir, 'pause.wav'), beep, machine, 'pad', '0.3', '15']);
  const beepEndsAt = 0.3 + Number(execFileSync('soxi', ['-D', greeting]).toString()) + 0.4 + 0.5;
  const phone = await startBaresip(machine, { port: trunkPort, user: CALLEE });
  try {
    const id = await place();
    const session = await ended(id);
    expect(session).toMatchObject({ status: 'voicemail', end_reason: 'voicemail', voicemail_message_left: true });
    expect(session.amd).toMatchObject({ result: 'machine' });
    // Decided by the time the beep ended (its long greeting, or the beep itself).
    expect(session.amd.decided_after_ms).toBeLessThanOrEqual(beepEndsAt * 1000);
    expect(session.transcript.filter((t: any) => t.role === 'agent').map((t: any) => t.content)).toEqual([MESSAGE]);
    const agentTurn = session.transcript.find((t: any) => t.role === 'agent');
    // Spoken after the beep ended, not before.
    expect(agentTurn.t).toBeGreaterThanOrEqual(beepEndsAt - 0.1);
    // What the machine recorded after its beep is the message.
    await eventually(() => phone.heardFiles().length === 1, 15_000);
    const heard = decodePcm16Wav(readFileSync(phone.heardFiles()[0]!));
    const before = heard.samples.subarray(0, Math.floor((beepEndsAt - 0.2) * 8000));
    const after = heard.samples.subarray(Math.floor(beepEndsAt * 8000));
    expect(rms(before)).toBeLessThan(100); // nothing said to the machine during its greeting
    expect(rms(after)).toBeGreaterThan(300);
    const words = await recognisePhoneAudio(after);
    console.log(`the machine recorded: "${words}"`);
    expect(words).toMatch(/hello|ava|northwind|dental|call|appointment|back|good/);
  } finally {
    await phone.stop();
  }
});

it('a person answers "Hello?": the agent greets them, and the session says human', async () => {
  const hello = spoken('Hello?', 'hello');
  const person = join(dir, 'person.wav');
  execFileSync('sox', [hello, person, 'pad', '0.5', '10']);
  const phone = await startBaresip(person, { port: trunkPort, user: CALLEE });
  try {
    const id = await place();
    const session = await ended(id);
    expect(session).toMatchObject({ status: 'completed', voicemail_message_left: false });
    expect(session.amd).toMatchObject({ result: 'human' });
    // Decided by the silence after "Hello?": within about 3 s of the answer.
    expect(session.amd.decided_after_ms).toBeLessThan(4000);
    const agentTurns = session.transcript.filter((t: any) => t.role === 'agent');
    expect(agentTurns[0]?.content).toBe('Hi, this is Ava from Northwind Dental.');
  } finally {
    await phone.stop();
  }
});
