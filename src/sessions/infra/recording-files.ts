import { copyFile, link, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AppConfig } from '../../config/config';
import { synthesiseDualChannelWav } from '../../kernel/audio/wav';

/** Recordings are WAV files under DATA_DIR/recordings, named by recording id. */
export function recordingPath(config: AppConfig, recordingId: string): string {
  return join(resolve(config.dataDir), 'recordings', `${recordingId}.wav`);
}

/** The simulated audio of each call length, written once: DATA_DIR/simulated-audio/<seconds>s.wav. */
const templates = new Map<string, Promise<string>>();

async function template(config: AppConfig, durationSeconds: number): Promise<string> {
  const dir = join(resolve(config.dataDir), 'simulated-audio');
  const path = join(dir, `${durationSeconds}s.wav`);
  let made = templates.get(path);
  if (!made) {
    made = (async () => {
      const exists = await stat(path).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await mkdir(dir, { recursive: true });
        // Written aside, then renamed: a reader (a link being made) never sees half a file.
        const partial = `${path}.${process.pid}.partial`;
        await writeFile(partial, synthesiseDualChannelWav(durationSeconds));
        await rename(partial, path);
      }
      return path;
    })();
    made.catch(() => templates.delete(path));
    templates.set(path, made);
  }
  return made;
}

/**
 * The simulator's recording: a synthetic dual-channel WAV of the call's length. Every recording of
 * one length has the same audio, so the file is a hard link to the one synthesised for that length
 * (a copy where links are not possible): synthesising and writing 1.4 MB per completed test call
 * cost more CPU than everything else the call does. Playing a step again finds the file there.
 */
export async function writeSimulatedRecording(
  config: AppConfig,
  recordingId: string,
  durationSeconds: number,
): Promise<void> {
  await mkdir(join(resolve(config.dataDir), 'recordings'), { recursive: true });
  const target = recordingPath(config, recordingId);
  for (let attempt = 0; ; attempt++) {
    const source = await template(config, durationSeconds);
    try {
      await link(source, target);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      if (code === 'ENOENT' && attempt === 0) {
        // The template was removed behind our back: make it again.
        templates.delete(source);
        continue;
      }
      await copyFile(source, target);
      return;
    }
  }
}

export async function removeRecording(config: AppConfig, recordingId: string): Promise<void> {
  await rm(recordingPath(config, recordingId), { force: true });
}
