import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AppConfig } from '../../config/config';
import type { BlobRead, BlobStore } from '../../infra/blobs/blob-store.port';
import { synthesiseDualChannelWav } from '../../kernel/audio/wav';

export const RECORDING_CONTENT_TYPE = 'audio/wav';

/** A recording in the blob store, which every instance reaches: `recordings/<recording id>.wav`. */
export function recordingKey(recordingId: string): string {
  return `recordings/${recordingId}.wav`;
}

/**
 * DATA_DIR/recordings/<recording id>.wav: where versions before the blob store kept recordings
 * (still read, and removed by a purge:
 * docs/decisions/0065-recordings-and-voice-samples-live-in-one-blob-store-that.md), and where the
 * room recorder writes its file while a call lasts, before `storeRecordingFile` moves it into the
 * blob store.
 */
export function recordingPath(config: AppConfig, recordingId: string): string {
  return join(resolve(config.dataDir), 'recordings', `${recordingId}.wav`);
}

/**
 * The simulator's recording: a synthetic dual-channel WAV of the call's length. Every recording of
 * one length has the same audio, so the recording is a copy, in the store, of the one synthesised for
 * that length (`simulated-audio/<seconds>s.wav`, put once): synthesising and storing 1.4 MB per
 * completed test call cost more than everything else the call does, and in PostgreSQL a copy moves
 * no bytes. Playing a step again copies again, the same.
 */
export async function writeSimulatedRecording(
  blobs: BlobStore,
  recordingId: string,
  durationSeconds: number,
): Promise<void> {
  const template = `simulated-audio/${durationSeconds}s.wav`;
  if (await blobs.copy(template, recordingKey(recordingId))) return;
  await blobs.put(template, synthesiseDualChannelWav(durationSeconds), RECORDING_CONTENT_TYPE);
  if (!(await blobs.copy(template, recordingKey(recordingId))))
    throw new Error(`the simulated audio ${template} vanished before it was copied`);
}

/** Moves a finished recording file (the room recorder's) into the blob store, then removes the file. */
export async function storeRecordingFile(blobs: BlobStore, recordingId: string, path: string): Promise<void> {
  const { size } = await stat(path);
  await blobs.put(recordingKey(recordingId), { stream: createReadStream(path), size }, RECORDING_CONTENT_TYPE);
  await rm(path, { force: true });
}

/** The recording's bytes: from the blob store, else a file an older version left under DATA_DIR. */
export async function openRecording(
  blobs: BlobStore,
  config: AppConfig,
  recordingId: string,
): Promise<BlobRead | null> {
  const stored = await blobs.open(recordingKey(recordingId));
  if (stored) return stored;
  const path = recordingPath(config, recordingId);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  return { size: info.size, contentType: RECORDING_CONTENT_TYPE, stream: createReadStream(path) };
}

/** Removes the recording from the blob store (for every instance) and any older version's local file. */
export async function removeRecording(blobs: BlobStore, config: AppConfig, recordingId: string): Promise<void> {
  await blobs.delete(recordingKey(recordingId));
  await rm(recordingPath(config, recordingId), { force: true });
}
