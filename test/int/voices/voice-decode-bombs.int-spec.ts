/**
 * Decompression bombs among voice samples (src/voices/infra/audio-decoder.ts, flac-frames.ts): a
 * FLAC of one constant value in frames of 65,535 samples is ~20 KB for hundreds of millions of
 * samples. Probing or measuring it must neither decode it whole in one step nor grow the process by
 * more than a bounded amount: each file is probed and measured in a child process of its own, whose
 * peak resident memory is read back (before the fix: about 1 GB for the 8-channel file).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AudioFixtures } from '../../support/audio-fixtures';

jest.setTimeout(120_000);

const DECODER = resolve(__dirname, '../../../dist/voices/infra/audio-decoder.js');
/** A child process with the decoder loaded peaks at about 50 MB; this is well above it and far below a bomb. */
const MAX_RSS_MB = 250;

let audio: AudioFixtures;
beforeAll(() => (audio = new AudioFixtures()));
afterAll(() => audio?.remove());

/** A long silent FLAC encoded by ffmpeg with the given frame size and channel layout. */
function silentFlac(name: string, seconds: number, frameSize: number, layout: string): string {
  const path = `${audio.dir}/${name}.flac`;
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `anullsrc=r=8000:cl=${layout}`, '-t', String(seconds)],
    ...['-c:a', 'flac', '-frame_size', String(frameSize), path],
  ]);
  return path;
}

/** probeAudio or measureAudio (bounded at ten minutes) in a child process: its answer and peak RSS. */
function decodeInChild(op: 'probe' | 'measure', path: string): { result: unknown; maxRssMb: number } {
  const script = `
    const d = require(${JSON.stringify(DECODER)});
    const run = ${JSON.stringify(op)} === 'probe' ? d.probeAudio(process.argv[1], 'flac') : d.measureAudio(process.argv[1], 'flac', 600000);
    // VmHWM: the peak of this process's own address space (ru_maxrss would also count the parent's
    // resident set at fork time, which the exec replaced: under a busy jest worker, ~280 MB).
    const hwm = () => Number(/VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
    run.then((result) => console.log(JSON.stringify({ result, maxRssMb: hwm() })));`;
  const child = spawnSync(process.execPath, ['-e', script, path], { encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) throw new Error(`decoder child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim()) as { result: unknown; maxRssMb: number };
}

it('refuses a FLAC whose STREAMINFO declares 65,535-sample blocks, without decoding it', () => {
  const bomb = silentFlac('bomb-8ch', 3600, 65_535, '7.1');
  const probe = decodeInChild('probe', bomb);
  expect(probe.result).toMatch(/blocks of up to 65535 samples are larger than 16384/);
  expect(probe.maxRssMb).toBeLessThan(MAX_RSS_MB);
  const measure = decodeInChild('measure', bomb);
  expect(measure.result).toMatchObject({ kind: 'measured', measurement: { duration_ms: 0 } });
  expect(measure.maxRssMb).toBeLessThan(MAX_RSS_MB);
});

it('refuses frames of 65,535 samples even when STREAMINFO claims small blocks', () => {
  const bomb = silentFlac('liar-8ch', 3600, 65_535, '7.1');
  const bytes = readFileSync(bomb);
  bytes.writeUInt16BE(4096, 8); // STREAMINFO min block size
  bytes.writeUInt16BE(4096, 10); // STREAMINFO max block size
  writeFileSync(bomb, bytes);
  const probe = decodeInChild('probe', bomb);
  expect(probe.result).toMatch(/a FLAC frame of 65535 samples is larger than 16384/);
  expect(probe.maxRssMb).toBeLessThan(MAX_RSS_MB);
  const measure = decodeInChild('measure', bomb);
  expect(measure.result).toMatchObject({ kind: 'measured', measurement: { duration_ms: 0 } });
  expect(measure.maxRssMb).toBeLessThan(MAX_RSS_MB);
});

it('measures a FLAC of allowed 16,384-sample constant frames in bounded steps, stopping at the length bound', () => {
  const dense = silentFlac('dense-8ch', 3600, 16_384, '7.1');
  const probe = decodeInChild('probe', dense);
  expect(probe.result).toBeNull();
  expect(probe.maxRssMb).toBeLessThan(MAX_RSS_MB);
  const measure = decodeInChild('measure', dense);
  expect(measure.result).toMatchObject({ kind: 'too_long' });
  expect((measure.result as { decodedMs: number }).decodedMs).toBeLessThan(610_000);
  expect(measure.maxRssMb).toBeLessThan(MAX_RSS_MB);
});

it('still measures an ordinary FLAC exactly', () => {
  const tone = audio.tone('flac', { seconds: 40, rate: 44_100, channels: 2 });
  const measure = decodeInChild('measure', tone);
  expect(measure.result).toMatchObject({ kind: 'measured', measurement: { duration_ms: 40_000 } });
});
