/**
 * An outbound call from the SIP user agent to baresip, a real softphone on loopback that answers by
 * itself, speaks a recorded sentence (flite, 8 kHz) and records what it hears. Audio must cross
 * both ways: our side hears the sentence (energy, and words the embedded recogniser finds in it once
 * upsampled to 16 kHz), and baresip's recording holds the tone we sent.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedRecognizer } from '../../../src/conversations/engines/embedded/embedded-recognizer';
import { decodePcm16Wav } from '../../../src/kernel/audio/wav';
import { RtpCallMedia, type RtpMediaSession, SipUserAgent } from '../../../src/telephony/index';
import { type Baresip, startBaresip } from '../../support/baresip';
import { eventually } from '../../support/eventually';
import { freeUdpPort } from '../../support/sipp';

jest.setTimeout(120_000);

/** 8 kHz to 16 kHz by linear interpolation (what a phone call's audio gives the recogniser). */
function upsample(frame: Int16Array): Int16Array {
  const out = new Int16Array(frame.length * 2);
  for (let i = 0; i < frame.length; i++) {
    out[2 * i] = frame[i]!;
    out[2 * i + 1] = Math.round((frame[i]! + (frame[i + 1] ?? frame[i]!)) / 2);
  }
  return out;
}

const rms = (samples: Int16Array): number => Math.sqrt(samples.reduce((s, v) => s + v * v, 0) / samples.length);

describe('SIP user agent calling baresip', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sip-baresip-'));
  let ua: SipUserAgent<RtpMediaSession>;
  let phone: Baresip;

  beforeAll(async () => {
    const wav16 = join(dir, 'voice16.wav');
    execFileSync('flite', [
      '-voice',
      'slt',
      '-t',
      'Hello, this is the callee. What is the weather tomorrow?',
      '-o',
      wav16,
    ]);
    const voice = join(dir, 'voice.wav');
    execFileSync('sox', [wav16, '-r', '8000', '-c', '1', '-b', '16', voice]);
    phone = await startBaresip(voice);
    const first = await freeUdpPort(true);
    ua = new SipUserAgent({
      listenHost: '127.0.0.1',
      listenPort: 0,
      media: new RtpCallMedia({ host: '127.0.0.1', ports: { first, last: first + 99 } }),
    });
    await ua.start();
  });

  afterAll(async () => {
    await ua?.stop();
    await phone?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries audio both ways: we hear the callee, the callee hears us', async () => {
    const placed = await ua.call({
      to: 'phone',
      from: '+15559870000',
      trunkUri: `sip:127.0.0.1:${phone.port}`,
      ringTimeoutMs: 20_000,
    });
    const outcome = await placed.outcome;
    if (outcome.kind !== 'answered') throw new Error(`${JSON.stringify(outcome)}\n${phone.output()}`);
    const call = placed.call;
    const heard: Int16Array[] = [];
    call.media.onFrame((f) => heard.push(f));
    let n = 0;
    call.media.play({
      nextFrame: () =>
        Int16Array.from({ length: 160 }, (_, i) =>
          Math.round(6000 * Math.sin((2 * Math.PI * 600 * (n++ * 0 + i)) / 8000)),
        ),
    });
    await call.media.mediaFlowing();
    // baresip hangs up when its WAV ends (about 4 s of speech).
    await expect(call.ended).resolves.toEqual({ by: 'remote' });
    expect(heard.length).toBeGreaterThan(150);
    expect(heard.filter((f) => rms(f) > 500).length).toBeGreaterThan(50);
    // The words: upsampled to 16 kHz for the embedded recogniser (pocketsphinx).
    const recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
    try {
      const stream = recognizer.start('en-US');
      for (const frame of heard) stream.write(upsample(frame));
      stream.write(new Int16Array(8000));
      const words = await stream.finish();
      expect(words).toMatch(/weather tomorrow/); // heard in a run: "hello but it it paulie when the weather tomorrow"
    } finally {
      recognizer.close();
    }
    // What baresip heard: our 600 Hz tone, recorded by its sndfile filter.
    await eventually(() => phone.heardFiles().length === 1, 10_000);
    const recorded = decodePcm16Wav(readFileSync(phone.heardFiles()[0]!));
    expect(recorded.sampleRate).toBe(8000);
    expect(rms(recorded.samples)).toBeGreaterThan(1500);
  });
});
