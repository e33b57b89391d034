import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { foldStored } from '../../kernel/decider';
import { type LegacyFiles, type LegacyMove, moveLegacyFilesInBackground } from '../../infra/blobs/legacy-files';
import { START_WORKERS } from '../../runtime/runtime.module';
import { voiceCloneDecider, voiceCloneStream } from '../domain/voice-clone.decider';
import { SAMPLE_STORE, type SampleStore } from '../infra/sample-store';

/**
 * Samples that versions before the blob store kept under this instance's
 * DATA_DIR/voices/<voice id>/ are moved into the store at start (`infra/blobs/legacy-files.ts`,
 * docs/decisions/0065-recordings-and-voice-samples-live-in-one-blob-store-that.md). A voice is kept
 * while it exists and is not deleted, in its events read now; a deleted or unknown voice's files
 * are only removed. A deletion recorded meanwhile is followed by the voices reactor's removal
 * timer, which runs after its event, so no order of the two leaves samples behind.
 */
@Injectable()
export class LegacySamples implements OnApplicationBootstrap, LegacyFiles<string> {
  readonly what = 'samples';
  private readonly logger = new Logger('Voices');

  constructor(
    @Inject(START_WORKERS) private readonly startWorkers: boolean,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(SAMPLE_STORE) private readonly samples: SampleStore,
  ) {}

  onApplicationBootstrap(): void {
    if (this.startWorkers) moveLegacyFilesInBackground(this, this.logger);
  }

  summary(n: LegacyMove): string {
    return `${n.moved} voices moved to the store, ${n.removed} deleted ones removed`;
  }

  list(): Promise<string[]> {
    return this.samples.legacyVoices();
  }

  /** Whether the voice exists and is not deleted, in its events read now. */
  async kept(voiceId: string): Promise<boolean> {
    const stored = await this.events.readStream(voiceCloneStream(voiceId));
    const state = foldStored(voiceCloneDecider, stored);
    return state.status !== 'none' && state.status !== 'deleted';
  }

  store(voiceId: string): Promise<void> {
    return this.samples.storeLegacy(voiceId);
  }

  /** The voice's samples in the store, and its files here with them. */
  unstore(voiceId: string): Promise<void> {
    return this.samples.removeVoice(voiceId);
  }

  removeLocal(voiceId: string): Promise<void> {
    return this.samples.removeLocal(voiceId);
  }
}
