import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AppConfig } from '../../config/config';
import { synthesiseDualChannelWav } from '../../kernel/audio/wav';

/** Recordings are WAV files under DATA_DIR/recordings, named by recording id. */
export function recordingPath(config: AppConfig, recordingId: string): string {
  return join(resolve(config.dataDir), 'recordings', `${recordingId}.wav`);
}

/** The simulator's recording: a synthetic dual-channel WAV of the call's length. */
export async function writeSimulatedRecording(
  config: AppConfig,
  recordingId: string,
  durationSeconds: number,
): Promise<void> {
  await mkdir(join(resolve(config.dataDir), 'recordings'), { recursive: true });
  await writeFile(recordingPath(config, recordingId), synthesiseDualChannelWav(durationSeconds));
}

export async function removeRecording(config: AppConfig, recordingId: string): Promise<void> {
  await rm(recordingPath(config, recordingId), { force: true });
}
