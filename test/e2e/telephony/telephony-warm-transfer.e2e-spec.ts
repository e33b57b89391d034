/**
 * A warm transfer on real calls (docs/telephony.md, "Transfers"): the service (node dist/main.js)
 * with the built-in agent and the embedded engines answers a caller (SIPp) who asks for a real
 * person. The agent's number has `transfer_mode: "warm"`: the service calls the transfer number
 * through its trunk, where a second phone answers (baresip, or SIPp answering busy), briefs whoever
 * answers in the agent's voice, then bridges the two calls.
 * - Answered: baresip hears the briefing (recognised by pocketsphinx), then the caller's audio (a
 *   700 Hz tone the caller plays later, which the agent never makes); the caller's side of the
 *   session's recording holds baresip's audio (a 1 kHz tone) once bridged. When the caller hangs up,
 *   baresip is hung up on and the session ends `transferred`.
 * - Busy (486): `session.transfer_failed` (`target_failed`, 486), and the agent tells the caller.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goertzelCoefficient, goertzelPower } from '../../../src/kernel/audio/goertzel';
import { decodePcm16Wav } from '../../../src/kernel/audio/wav';
import { startBaresip } from '../../support/baresip';
import { type CallsService, sessionEvents, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { SIPP_SCENARIOS, type SippRun, startSipp } from '../../support/sipp';
import type { TenantInfo } from '../../support/webhooks-harness';
import { recognisePhoneAudio } from '../../support/phone-audio';
import { startTelephonyService } from '../../support/telephony-service';

// Generous: on a loaded machine recognition lags (the cold transfer's test saw 47 s for 17 s quiet).
jest.setTimeout(400_000);

const OUR_NUMBER = '+14155550188';
const WARM_NUMBER = '+14155550167';
const BUSY_NUMBER = '+14155550168';
const TRANSFER_NUMBER = '+14155550143';
const TRANSFERRING = 'Of course. I am transferring you to a person now.';
const dir = mkdtempSync(join(tmpdir(), 'tel-warm-'));
let h: CallsService;
let tenant: TenantInfo;
let trunkPort: number;
let listenPort: number;

beforeAll(async () => {
  ({ h, tenant, trunkPort, listenPort } = await startTelephonyService('Warm Transfer Co', [OUR_NUMBER], {
    baresip: true,
  }));
  for (const number of [WARM_NUMBER, BUSY_NUMBER]) {
    const assigned = await h.call('POST', `/admin/v1/tenants/${tenant.tenant_id}/phone_numbers`, {
      token: h.svc.adminToken,
      body: {
        phone_number: number,
        agent_config: {
          prompt: 'Answer.',
          first_message: 'Hello.',
          transfer_number: TRANSFER_NUMBER,
          transfer_mode: 'warm',
          // A request heard while the agent speaks is answered, not dropped for the next utterance.
          interruptible: false,
        },
      },
    });
    expect(assigned.status).toBe(201);
  }
});

afterAll(async () => {
  await stopCallsSuite(h);
  rmSync(dir, { recursive: true, force: true });
});

const sox = (...args: string[]): void => void execFileSync('sox', args);
const SOX_8K = ['-r', '8000', '-c', '1', '-b', '16'];

function silence(seconds: number, name: string): string {
  const path = join(dir, `${name}.wav`);
  sox('-n', ...SOX_8K, path, 'trim', '0', `${seconds}`);
  return path;
}

function tone(hz: number, seconds: number, name: string): string {
  const path = join(dir, `${name}.wav`);
  sox('-n', ...SOX_8K, path, 'synth', `${seconds}`, 'sin', `${hz}`, 'gain', '-16');
  return path;
}

/** flite's slt voice saying `text` at 8 kHz, `padBefore` seconds of silence first. */
function spoken(text: string, padBefore: number, name: string): string {
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', join(dir, `${name}-16k.wav`)]);
  const path = join(dir, `${name}.wav`);
  sox(join(dir, `${name}-16k.wav`), ...SOX_8K, path, 'pad', `${padBefore}`);
  return path;
}

/**
 * The caller, as raw 8 kHz μ-law for SIPp: "Hello, who is this?", twice "Let me talk to a real
 * person." (as the cold transfer's test: a fresh recogniser may mishear the first), silence until
 * `toneAt` s, then a 700 Hz tone for `toneSeconds` s (heard only by whoever the caller is bridged to).
 */
function callerAudio(toneAt: number, toneSeconds: number): string {
  const speech = [
    spoken('Hello, who is this?', 3.5, 'hello'),
    spoken('Let me talk to a real person.', 4.5, 'person1'),
    spoken('Let me talk to a real person.', 7, 'person2'),
  ];
  const said = speech.reduce((sum, f) => sum + Number(execFileSync('soxi', ['-D', f]).toString()), 0);
  const audio = join(dir, `caller-${toneAt}.ul`);
  sox(
    ...speech,
    silence(Math.max(1, toneAt - said), `gap-${toneAt}`),
    tone(700, toneSeconds, `caller-tone-${toneSeconds}`),
    '-t',
    'ul',
    '-r',
    '8000',
    '-c',
    '1',
    audio,
  );
  return audio;
}

function scenario(audio: string, hangUpAfterMs: number): string {
  const path = join(dir, `uac-inbound-speech-${hangUpAfterMs}.xml`);
  writeFileSync(
    path,
    readFileSync(join(SIPP_SCENARIOS, 'uac-inbound-speech.xml'), 'utf8')
      .replace('rtp_stream="CALLER_AUDIO,', `rtp_stream="${audio},`)
      .replace('milliseconds="HANGUP_AFTER"', `milliseconds="${hangUpAfterMs}"`),
  );
  return path;
}

async function sippPassed(run: SippRun): Promise<void> {
  const result = await run.done;
  if (result.code !== 0)
    throw new Error(`SIPp failed (${result.code}):\n${result.errors}\n${result.output.slice(-3000)}`);
}

async function inboundSession(to: string): Promise<any> {
  let session: any;
  await eventually(async () => {
    const list = (await h.call('GET', '/v1/sessions?direction=inbound', { token: tenant.api_key })).body.data as any[];
    const found = list.find((s) => s.to_number === to);
    session = found && (await h.call('GET', `/v1/sessions/${found.session_id}`, { token: tenant.api_key })).body;
    return session?.ended_at != null;
  }, 60_000).catch(() => {
    throw new Error(`session never ended: ${JSON.stringify(session)}\n${h.diagnostics()}`);
  });
  return session;
}

/** Seconds (1 s blocks) in which `hz` carries most of the energy of `samples` (8 kHz). */
function toneSeconds(samples: Int16Array, hz: number): number[] {
  const coeff = goertzelCoefficient(hz, 8000);
  const seconds: number[] = [];
  for (let at = 0; at + 8000 <= samples.length; at += 8000) {
    let energy = 0;
    for (let i = at; i < at + 8000; i++) energy += samples[i]! * samples[i]!;
    if (energy / 8000 < 100 * 100) continue; // near silence
    const purity = (2 * goertzelPower(samples, coeff, at, at + 8000)) / (8000 * energy);
    if (purity > 0.5) seconds.push(at / 8000);
  }
  return seconds;
}

it('answered: the person hears the briefing, then the caller; the caller hears them; the session ends transferred', async () => {
  // The person at the transfer number "speaks" a 1 kHz tone, which the agent never makes.
  const person = await startBaresip(tone(1000, 120, 'person-tone'), { port: trunkPort, user: TRANSFER_NUMBER });
  try {
    const caller = await startSipp({
      scenario: scenario(callerAudio(45, 40), 90_000),
      target: `127.0.0.1:${listenPort}`,
      service: WARM_NUMBER,
      timeoutSeconds: 150,
    });
    await sippPassed(caller);
    const session = await inboundSession(WARM_NUMBER);
    expect(session).toMatchObject({ status: 'completed', end_reason: 'transferred', transfer_number: TRANSFER_NUMBER });
    const agentLines = session.transcript.filter((t: any) => t.role === 'agent').map((t: any) => t.content);
    expect(agentLines).toContain(TRANSFERRING);
    const types = (await sessionEvents(h.call, tenant.api_key, session.session_id)).map((e) => e.type);
    expect(types).not.toContain('session.transfer_failed');

    // What the person heard: the briefing first (the agent's voice), then the caller's 700 Hz tone.
    await eventually(() => person.heardFiles().length === 1, 15_000);
    const heard = decodePcm16Wav(readFileSync(person.heardFiles()[0]!)).samples;
    const briefing = await recognisePhoneAudio(heard.subarray(0, 14 * 8000));
    console.log(`the person heard first: "${briefing}"`);
    expect(briefing).toMatch(/caller|line|connect|person|talk|real/);
    const callerTone = toneSeconds(heard, 700);
    expect(callerTone.length).toBeGreaterThanOrEqual(20);
    expect(toneSeconds(heard.subarray(0, 8 * 8000), 700)).toEqual([]); // not during the briefing

    // The caller's side of the session's recording (left: what the caller heard) holds the person's tone.
    await eventually(async () => {
      const s = (await h.call('GET', `/v1/sessions/${session.session_id}`, { token: tenant.api_key })).body;
      return s.recording?.status === 'available';
    }, 30_000);
    const s = (await h.call('GET', `/v1/sessions/${session.session_id}`, { token: tenant.api_key })).body;
    const wav = decodePcm16Wav(Buffer.from(await (await fetch(s.recording.recording_url)).arrayBuffer()));
    const left = wav.samples.filter((_, i) => i % 2 === 0);
    const personHeard = toneSeconds(left, 1000);
    expect(personHeard.length).toBeGreaterThanOrEqual(20);
    // Bridged after the agent's line was said, and until the caller hung up (the recording runs 90 s).
    const transferTurn = session.transcript.find((t: any) => t.content === TRANSFERRING);
    expect(personHeard[0]!).toBeGreaterThan(transferTurn.t);
    expect(wav.samples.length / 2 / 8000).toBeGreaterThan(85);
  } finally {
    await person.stop();
  }
});

it('busy (486): session.transfer_failed, the agent says so, and the caller stays with the agent', async () => {
  const busy = await startSipp({ scenario: 'uas-486.xml', port: trunkPort, timeoutSeconds: 100 });
  try {
    const caller = await startSipp({
      scenario: scenario(callerAudio(40, 1), 40_000),
      target: `127.0.0.1:${listenPort}`,
      service: BUSY_NUMBER,
      timeoutSeconds: 100,
    });
    await sippPassed(caller);
    const session = await inboundSession(BUSY_NUMBER);
    expect(session).toMatchObject({ status: 'completed', end_reason: 'completed' });
    const events = await sessionEvents(h.call, tenant.api_key, session.session_id);
    const failed = events.filter((e) => e.type === 'session.transfer_failed');
    expect(failed.map((e) => e.data)).toEqual([
      expect.objectContaining({ transfer_number: TRANSFER_NUMBER, reason: 'target_failed', sip_code: 486 }),
    ]);
    const agentLines = session.transcript.filter((t: any) => t.role === 'agent').map((t: any) => t.content);
    expect(agentLines).toEqual(
      expect.arrayContaining([
        TRANSFERRING,
        'I am sorry, I could not reach anyone to transfer you to. I am still here with you.',
      ]),
    );
    await sippPassed(busy); // the trunk saw the INVITE to the transfer number, refused it, and got its ACK
  } finally {
    busy.kill();
  }
});
