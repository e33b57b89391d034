import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { AudioMeter, type SampleMeasurement } from '../domain/audio-meter';
import type { SampleFormat } from '../domain/audio-format';

/**
 * Decoding with `audio-decode` (audiojs: WAV in JavaScript; FLAC, MP3, Vorbis and Opus in WebAssembly),
 * chunk by chunk from the file, so that memory stays bounded whatever the sample's length. The package
 * is an ES module, loaded on first use with a native dynamic import.
 *
 * These functions do the decoding where they are called: the service calls them only inside its
 * decoding workers (audio-decode.worker.ts, through DecodePool), never on its event loop.
 */
const load = () => import('audio-decode');
type AudioDecodeModule = Awaited<ReturnType<typeof load>>;
type ChunkFormat = 'wav' | 'flac' | 'mp3' | 'oga' | 'opus';

const CODEC: Record<SampleFormat, ChunkFormat> = {
  wav: 'wav',
  flac: 'flac',
  mp3: 'mp3',
  ogg_vorbis: 'oga',
  ogg_opus: 'opus',
};

/** Sample rates outside this range are refused: a header claiming one would make the length meaningless. */
export const SAMPLE_RATE_RANGE = { min: 8000, max: 192_000 } as const;

/**
 * Bytes read at a time. Small, because a read decodes whole: 16 KB of 4 kbit/s Opus is about 32 s of
 * audio, 6 MB of float PCM at 48 kHz (64 KB would be four times that).
 */
const READ_CHUNK = 16 * 1024;
/** The probe reads at most this much (cover art in a tag may come before the audio)… */
const PROBE_BYTES = 4 * 1024 * 1024;
/** …and stops once this much audio has decoded. */
const PROBE_SECONDS = 0.1;

let loading: Promise<AudioDecodeModule> | null = null;
function decoder(): Promise<AudioDecodeModule> {
  loading ??= load();
  loading.catch(() => (loading = null));
  return loading;
}

export class UndecodableAudio extends Error {}

async function* chunks(path: string, format: SampleFormat, bytes?: number) {
  const { default: decode } = await decoder();
  const source = createReadStream(path, { highWaterMark: READ_CHUNK, ...(bytes ? { end: bytes - 1 } : {}) });
  try {
    for await (const chunk of decode(source, CODEC[format])) {
      const rate = chunk.sampleRate;
      if (!(rate >= SAMPLE_RATE_RANGE.min && rate <= SAMPLE_RATE_RANGE.max))
        throw new UndecodableAudio(
          `its sample rate (${rate} Hz) is outside ${SAMPLE_RATE_RANGE.min / 1000} to ${SAMPLE_RATE_RANGE.max / 1000} kHz`,
        );
      yield chunk;
    }
  } finally {
    source.destroy();
  }
}

/**
 * Whether the file starts as decodable audio of its format: its first chunks decode into sound at a
 * plausible rate. Returns null when they do, else why not (for a 400 at upload).
 */
export async function probeAudio(path: string, format: SampleFormat): Promise<string | null> {
  let seconds = 0;
  try {
    for await (const chunk of chunks(path, format, PROBE_BYTES)) {
      seconds += (chunk.channelData[0]?.length ?? 0) / chunk.sampleRate;
      if (seconds >= PROBE_SECONDS) return null;
    }
  } catch (err) {
    return err instanceof UndecodableAudio ? err.message : `it does not decode as ${format} audio`;
  }
  return seconds > 0 ? null : `no audio could be decoded from it as ${format}`;
}

/**
 * A measured sample, or one longer than the bound it was measured against: decoding stopped as soon
 * as the decoded audio passed `maxMs` (`decodedMs` is how far it got), so that an hour-long file
 * costs no more than the bound. `stoppedEarly` says why decoding ended before the file did, when a
 * decoding error ended it (what decoded is what counts).
 */
export type AudioMeasurement =
  | { kind: 'measured'; measurement: SampleMeasurement; stoppedEarly: string | null }
  | { kind: 'too_long'; decodedMs: number };

/**
 * Measures the whole file from its decoded audio, streaming: duration, loudness and spectrum are
 * computed chunk by chunk (AudioMeter), no PCM is kept. A decoding error after some audio has decoded
 * ends the sample there; a file missing or unreadable throws, so that the training timer retries.
 */
export async function measureAudio(path: string, format: SampleFormat, maxMs: number): Promise<AudioMeasurement> {
  await stat(path); // missing on this instance: throw, the timer retries (docs/voices.md)
  const meter = new AudioMeter();
  let seconds = 0;
  let stoppedEarly: string | null = null;
  try {
    for await (const chunk of chunks(path, format)) {
      seconds += (chunk.channelData[0]?.length ?? 0) / chunk.sampleRate;
      if (seconds * 1000 > maxMs) return { kind: 'too_long', decodedMs: Math.round(seconds * 1000) };
      meter.push(chunk.channelData, chunk.sampleRate);
    }
  } catch (err) {
    stoppedEarly = err instanceof Error ? err.message : String(err);
  }
  return { kind: 'measured', measurement: meter.result(), stoppedEarly };
}
