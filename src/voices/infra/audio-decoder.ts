import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { AudioMeter, type SampleMeasurement } from '../domain/audio-meter';
import { SNIFF_BYTES, type SampleFormat } from '../domain/audio-format';
import { AUDIO_LIMITS, audioHeaderProblem } from '../domain/audio-limits';
import { FlacFrameTooLarge, flacPieces } from './flac-frames';

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
 * Bytes given to the decoder at a time, by format. Small, because each piece decodes whole, every
 * frame in it at once (then the frames' PCM is copied into one array per channel): the piece bounds
 * what one step allocates. Worst cases per byte of crafted input: FLAC frames of one constant value
 * hold up to 65,535 samples per channel in about 12 bytes, and the decoder believes each frame's
 * header, not STREAMINFO: FLAC is cut into whole frames of at most 16,384 samples each instead
 * (flac-frames.ts). An Ogg packet of 2 bytes holds up to 120 ms of Opus (5,760 samples) or a Vorbis
 * long block (4,096), so 256 bytes are at most ~128 packets, ~24 MB at 8 channels. MP3 frames are at least 72 bytes for 576 samples
 * of 2 channels (16 KB: ~1 MB); WAV is PCM (at most 4 bytes of float per byte).
 */
const READ_BYTES: Record<SampleFormat, number> = {
  wav: 16 * 1024,
  mp3: 16 * 1024,
  flac: 16 * 1024, // then cut into whole frames, FLAC_PIECE_SAMPLES at most (flac-frames.ts)
  ogg_vorbis: 256,
  ogg_opus: 256,
};
/** Samples per channel of one FLAC decoding step (whole frames, at least one): 8 channels, 512 KB of PCM. */
const FLAC_PIECE_SAMPLES = 16_384;
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

/** The file's first bytes (as many as the sniffer reads). */
async function head(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

async function* chunks(path: string, format: SampleFormat, bytes?: number) {
  const refused = audioHeaderProblem(await head(path), format);
  if (refused) throw new UndecodableAudio(refused);
  const { default: decode } = await decoder();
  const source = createReadStream(path, { highWaterMark: READ_BYTES[format], ...(bytes ? { end: bytes - 1 } : {}) });
  const input =
    format === 'flac'
      ? flacPieces(source as AsyncIterable<Uint8Array>, AUDIO_LIMITS.maxFlacBlockSize, FLAC_PIECE_SAMPLES)
      : source;
  try {
    for await (const chunk of decode(input, CODEC[format])) {
      if (chunk.channelData.length > AUDIO_LIMITS.maxChannels)
        throw new UndecodableAudio(`it has ${chunk.channelData.length} channels (at most ${AUDIO_LIMITS.maxChannels})`);
      const rate = chunk.sampleRate;
      if (!(rate >= SAMPLE_RATE_RANGE.min && rate <= SAMPLE_RATE_RANGE.max))
        throw new UndecodableAudio(
          `its sample rate (${rate} Hz) is outside ${SAMPLE_RATE_RANGE.min / 1000} to ${SAMPLE_RATE_RANGE.max / 1000} kHz`,
        );
      yield chunk;
    }
  } catch (err) {
    throw err instanceof FlacFrameTooLarge ? new UndecodableAudio(err.message) : err;
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
