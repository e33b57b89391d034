import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { foldStored } from '../../kernel/decider';
import { START_WORKERS } from '../../runtime/runtime.module';
import { voiceCloneDecider, voiceCloneStream } from '../domain/voice-clone.decider';
import { SAMPLE_STORE, type SampleStore } from '../infra/sample-store';

/**
 * Samples that versions before the blob store kept under this instance's DATA_DIR/voices/<voice id>/
 * are moved into the store at start (docs/decisions.md 65), so that a deletion run by any instance
 * removes them. Per voice, its state is read from the event log: a voice not deleted has its files
 * put into the store, its state read again (a deletion recorded meanwhile deletes them again), and
 * the local files removed; a deleted or unknown voice's files are only removed. A deletion between
 * the two reads is followed by the voices reactor's removal timer, which runs after its event, so no
 * order of the two leaves samples behind.
 */
@Injectable()
export class LegacySamples implements OnApplicationBootstrap {
  private readonly logger = new Logger('Voices');

  constructor(
    @Inject(START_WORKERS) private readonly startWorkers: boolean,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(SAMPLE_STORE) private readonly store: SampleStore,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.startWorkers) return;
    this.importAll().then(
      (n) =>
        n.moved + n.removed > 0 &&
        this.logger.log(`older samples: ${n.moved} voices moved to the store, ${n.removed} deleted ones removed`),
      (err: unknown) => this.logger.warn(`moving older samples to the store failed: ${String(err)}`),
    );
  }

  async importAll(): Promise<{ moved: number; removed: number }> {
    const done = { moved: 0, removed: 0 };
    for (const voiceId of await this.store.legacyVoices()) {
      if (await this.kept(voiceId)) {
        await this.store.storeLegacy(voiceId);
        if (await this.kept(voiceId)) {
          await this.store.removeLocal(voiceId);
          done.moved++;
          continue;
        }
      }
      await this.store.removeVoice(voiceId);
      done.removed++;
    }
    return done;
  }

  /** Whether the voice exists and is not deleted, in its events read now. */
  private async kept(voiceId: string): Promise<boolean> {
    const stored = await this.events.readStream(voiceCloneStream(voiceId));
    const state = foldStored(voiceCloneDecider, stored);
    return state.status !== 'none' && state.status !== 'deleted';
  }
}
