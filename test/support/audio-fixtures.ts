/**
 * Real audio for the voice clone e2e suite, made with real encoders: Debian's `sox` (WAV, FLAC, MP3
 * through libsox-fmt-mp3, Ogg Vorbis) and `ffmpeg` (Ogg Opus), installed by .ci/run. Files go to a
 * temporary directory per test file. Also a multipart/form-data upload through fetch's FormData.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface ToneOptions {
  seconds: number;
  hz?: number;
  /** Peak level of the sine in dBFS (0 = full scale). */
  peakDbfs?: number;
  rate?: number;
  channels?: number;
}

export class AudioFixtures {
  readonly dir = mkdtempSync(join(tmpdir(), 'vap-audio-'));
  private made = 0;

  /** A sine made by sox in the format of `ext` (wav, flac, mp3, ogg), with a sweep so each file differs. */
  tone(ext: 'wav' | 'flac' | 'mp3' | 'ogg', opts: ToneOptions): string {
    const hz = opts.hz ?? 220 + 40 * this.made;
    const path = join(this.dir, `tone-${++this.made}.${ext}`);
    execFileSync('sox', [
      '-n',
      '-r',
      String(opts.rate ?? 16_000),
      '-c',
      String(opts.channels ?? 1),
      ...(ext === 'wav' || ext === 'flac' ? ['-b', '16'] : []),
      path,
      'synth',
      String(opts.seconds),
      'sine',
      `${hz}-${hz * 2}`,
      'vol',
      `${opts.peakDbfs ?? -6}dB`,
    ]);
    return path;
  }

  /** Ogg Opus, encoded by ffmpeg (libopus) from a WAV made by sox. */
  opus(opts: ToneOptions): string {
    const wav = this.tone('wav', opts);
    const path = wav.replace(/\.wav$/, '.opus');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', path]);
    return path;
  }

  /**
   * A long Ogg Opus at a low bitrate (4 kbit/s: about 2.3 MB an hour), encoded by ffmpeg from its own
   * sine source (lavfi), so that an hour of audio takes seconds to make, not a minute.
   */
  longOpus(seconds: number): string {
    const path = join(this.dir, `long-${++this.made}.opus`);
    execFileSync('ffmpeg', [
      ...['-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `sine=frequency=${220 + 40 * this.made}:duration=${seconds}:sample_rate=16000`],
      ...['-ac', '1', '-c:a', 'libopus', '-b:a', '4k', '-compression_level', '0', path],
    ]);
    return path;
  }

  /**
   * A WAV whose header lies: its RIFF and data sizes claim `claimedSeconds` of audio, but only
   * `realSeconds` follow. A check that believed the header would find it long enough.
   */
  lyingWav(realSeconds: number, claimedSeconds: number): string {
    const path = this.tone('wav', { seconds: realSeconds });
    const wav = readFileSync(path);
    const dataAt = wav.indexOf('data', 12, 'latin1');
    const rate = wav.readUInt32LE(24);
    const blockAlign = wav.readUInt16LE(32);
    const claimed = claimedSeconds * rate * blockAlign;
    wav.writeUInt32LE(claimed, dataAt + 4);
    wav.writeUInt32LE(claimed + dataAt, 4);
    const lying = path.replace(/\.wav$/, '-lying.wav');
    writeFileSync(lying, wav);
    return lying;
  }

  file(name: string, content: Buffer): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface UploadPart {
  path: string;
  /** The part's declared Content-Type (default: none given, sent as application/octet-stream). */
  type?: string;
  /** The form field (default `samples`). */
  field?: string;
}

/** POST /v1/voice_clones as multipart/form-data built by fetch's FormData. */
export async function uploadVoice(
  baseUrl: string,
  apiKey: string,
  name: string | null,
  parts: readonly UploadPart[],
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  if (name !== null) form.append('name', name);
  for (const part of parts) {
    const blob = new Blob([readFileSync(part.path)], part.type ? { type: part.type } : {});
    form.append(part.field ?? 'samples', blob, basename(part.path));
  }
  const res = await fetch(`${baseUrl}/v1/voice_clones`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}
