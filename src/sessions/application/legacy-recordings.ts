import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { BLOB_STORE, type BlobStore } from '../../infra/blobs/blob-store.port';
import { type LegacyFiles, type LegacyMove, moveLegacyFilesInBackground } from '../../infra/blobs/legacy-files';
import { foldStored } from '../../kernel/decider';
import { START_WORKERS } from '../../runtime/runtime.module';
import { sessionDecider, sessionStream } from '../domain/session.decider';
import { recordingKey, recordingPath, storeRecordingFile } from '../infra/recording-files';
import { SessionsQueries } from './sessions.queries';

const FILE = /^(rec_[a-z0-9]{10,40})\.wav$/;

/**
 * Recordings that versions before the blob store wrote under this instance's DATA_DIR/recordings
 * are moved into the store at start (`infra/blobs/legacy-files.ts`,
 * docs/decisions/0065-recordings-and-voice-samples-live-in-one-blob-store-that.md). A recording is
 * kept while it is available or pending its purge, in the session's events read now; a purged one's
 * file is removed (and its blob, which the purge deleted, deleted again). A purge that runs
 * meanwhile deletes the blob again after recording its event (session-timers.ts). A file whose
 * session is not (yet) in the read model stays for the next start, served from the disk meanwhile.
 */
@Injectable()
export class LegacyRecordings implements OnApplicationBootstrap, LegacyFiles<string> {
  readonly what = 'recordings';
  private readonly logger = new Logger('Recordings');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(START_WORKERS) private readonly startWorkers: boolean,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly sessions: SessionsQueries,
  ) {}

  onApplicationBootstrap(): void {
    if (this.startWorkers) moveLegacyFilesInBackground(this, this.logger);
  }

  summary(n: LegacyMove): string {
    return `${n.moved} moved to the store, ${n.removed} purged ones removed`;
  }

  async list(): Promise<string[]> {
    const names = await readdir(join(resolve(this.config.dataDir), 'recordings')).catch(() => [] as string[]);
    return names.flatMap((name) => FILE.exec(name)?.[1] ?? []);
  }

  async kept(recordingId: string): Promise<boolean | null> {
    const sessionId = await this.sessions.sessionOfRecording(recordingId);
    if (!sessionId) return null;
    const state = await this.recordingState(sessionId, recordingId);
    return state === 'available' || state === 'pending_purge';
  }

  store(recordingId: string): Promise<void> {
    return storeRecordingFile(this.blobs, recordingId, recordingPath(this.config, recordingId));
  }

  unstore(recordingId: string): Promise<void> {
    return this.blobs.delete(recordingKey(recordingId));
  }

  removeLocal(recordingId: string): Promise<void> {
    return rm(recordingPath(this.config, recordingId), { force: true });
  }

  /** The recording's state in the session's events, read now; null when the session has no such recording. */
  private async recordingState(sessionId: string, recordingId: string): Promise<string | null> {
    const stored = await this.events.readStream(sessionStream(sessionId));
    const state = foldStored(sessionDecider, stored);
    return state.status !== 'none' && state.recording?.id === recordingId ? state.recording.state : null;
  }
}
