import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { BLOB_STORE, type BlobStore } from '../../infra/blobs/blob-store.port';
import { foldStored } from '../../kernel/decider';
import { START_WORKERS } from '../../runtime/runtime.module';
import { sessionDecider, sessionStream } from '../domain/session.decider';
import { recordingKey, recordingPath, storeRecordingFile } from '../infra/recording-files';
import { SessionsQueries } from './sessions.queries';

const FILE = /^(rec_[a-z0-9]{10,40})\.wav$/;

/**
 * Recordings that versions before the blob store wrote under this instance's DATA_DIR/recordings are
 * moved into the store at start (docs/decisions.md 65), so that every instance serves them and a
 * purge run anywhere removes them. Per file, the session's state is read from the event log (not the
 * read model, which may lag): a recording still available or pending its purge is put into the
 * store, the state is read again and, if a purge was recorded meanwhile, the blob is deleted again;
 * a purged one is only removed from the disk. A purge that ran between the two reads deleted the
 * blob again after recording its event (session-timers.ts), so no order of the two leaves it behind.
 * A file whose session is not (yet) in the read model stays for the next start, served from the disk
 * meanwhile.
 */
@Injectable()
export class LegacyRecordings implements OnApplicationBootstrap {
  private readonly logger = new Logger('Recordings');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(START_WORKERS) private readonly startWorkers: boolean,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly sessions: SessionsQueries,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.startWorkers) return;
    this.importAll().then(
      (n) =>
        n.moved + n.removed > 0 &&
        this.logger.log(`older recordings: ${n.moved} moved to the store, ${n.removed} purged ones removed`),
      (err: unknown) => this.logger.warn(`moving older recordings to the store failed: ${String(err)}`),
    );
  }

  async importAll(): Promise<{ moved: number; removed: number; left: number }> {
    const dir = join(resolve(this.config.dataDir), 'recordings');
    const names = await readdir(dir).catch(() => [] as string[]);
    const done = { moved: 0, removed: 0, left: 0 };
    for (const name of names) {
      const recordingId = FILE.exec(name)?.[1];
      if (!recordingId) continue;
      const outcome = await this.importOne(recordingId);
      done[outcome]++;
    }
    return done;
  }

  private async importOne(recordingId: string): Promise<'moved' | 'removed' | 'left'> {
    const sessionId = await this.sessions.sessionOfRecording(recordingId);
    if (!sessionId) return 'left';
    const path = recordingPath(this.config, recordingId);
    const before = await this.recordingState(sessionId, recordingId);
    if (before === 'available' || before === 'pending_purge') {
      await storeRecordingFile(this.blobs, recordingId, path);
      if ((await this.recordingState(sessionId, recordingId)) !== 'purged') return 'moved';
      await this.blobs.delete(recordingKey(recordingId));
      return 'removed';
    }
    await rm(path, { force: true });
    return 'removed';
  }

  /** The recording's state in the session's events, read now; null when the session has no such recording. */
  private async recordingState(sessionId: string, recordingId: string): Promise<string | null> {
    const stored = await this.events.readStream(sessionStream(sessionId));
    const state = foldStored(sessionDecider, stored);
    return state.status !== 'none' && state.recording?.id === recordingId ? state.recording.state : null;
  }
}
