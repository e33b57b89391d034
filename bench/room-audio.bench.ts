import { RateConverter } from '../src/kernel/audio/rate-converter';
import { OPUS_FRAME, OpusDecoder, OpusEncoder } from '../src/rooms/infra/opus-codec';
import type { BenchContext } from './support';

/**
 * The CPU cost of a room call's audio per 20 ms frame (decision 122): Opus encode (the agent's
 * voice), decode (the participant's), a concealed packet, and the rate conversions (48 → 16 kHz for
 * the recording and the recogniser, 16 → 48 kHz for synthesised speech). CPU time (process.cpuUsage),
 * not wall time, so that a machine shared with other work does not inflate it as much; no database.
 * `call_cpu_share` is one call's share of a core: encode + decode + two conversions per 20 ms.
 */
export function roomAudioBench(ctx: BenchContext): Promise<object> {
  const frame = Int16Array.from({ length: OPUS_FRAME }, (_, i) =>
    Math.round(Math.sin(i / 7) * 8000 + (Math.random() - 0.5) * 2000),
  );
  const encoder = new OpusEncoder();
  const mono = new OpusDecoder(1);
  const stereo = new OpusDecoder(2);
  const packet = encoder.encode(frame);
  const down = new RateConverter(48000, 16000);
  const up = new RateConverter(16000, 48000);
  const frame16k = frame.subarray(0, 320);
  const iterations = Math.max(500, Math.round(ctx.seconds * 200));
  const cpuMicros = (work: () => void): number => {
    for (let i = 0; i < 200; i++) work(); // warm: WebAssembly and the JIT
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) work();
    const used = process.cpuUsage(start);
    return Math.round(((used.user + used.system) / iterations) * 10) / 10;
  };
  const result = {
    iterations,
    encode_us: cpuMicros(() => encoder.encode(frame)),
    decode_mono_us: cpuMicros(() => mono.decode(packet)),
    decode_stereo_us: cpuMicros(() => stereo.decode(packet)),
    conceal_us: cpuMicros(() => mono.conceal(OPUS_FRAME)),
    convert_48k_to_16k_us: cpuMicros(() => down.process(frame)),
    convert_16k_to_48k_us: cpuMicros(() => up.process(frame16k)),
  };
  encoder.close();
  mono.close();
  stereo.close();
  const perFrame = result.encode_us + result.decode_mono_us + 2 * result.convert_48k_to_16k_us;
  const share = Math.round((perFrame / 20_000) * 1000) / 10;
  ctx.log(`room audio: ${perFrame.toFixed(0)} µs of CPU per 20 ms frame, ${share} % of a core per call`);
  // Ten calls on 2 cores (issue 26) must leave a core for the engines: a call at most 10 % of one.
  ctx.check('call_cpu_share_percent', share, 10, 'max');
  return Promise.resolve({ ...result, call_us_per_frame: Math.round(perFrame), call_cpu_share_percent: share });
}
