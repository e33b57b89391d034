import type { Logger } from '@nestjs/common';

/** What one start did with the files an older version left. */
export interface LegacyMove {
  moved: number;
  removed: number;
  /** Items whose owner is not known yet: they stay on the disk, served from there, until the next start. */
  left: number;
}

/**
 * One kind of file that versions before the blob store kept under this instance's DATA_DIR
 * (recordings, voice samples). An item is what is moved as one: a recording, a voice's samples.
 */
export interface LegacyFiles<Item> {
  /** For the log: `recordings`, `samples`. */
  readonly what: string;
  /** The log line of a start that moved or removed something. */
  summary(done: LegacyMove): string;
  /** The items on this instance's disk. */
  list(): Promise<Item[]>;
  /**
   * Whether its owner keeps the item, from the owner's events read now (not a read model, which may
   * lag); null when the owner is not known yet.
   */
  kept(item: Item): Promise<boolean | null>;
  /** Puts the item's files into the blob store. */
  store(item: Item): Promise<void>;
  /** Deletes the item's blobs (repeating it is fine). */
  unstore(item: Item): Promise<void>;
  /** Removes the item's files from this disk (repeating it is fine). */
  removeLocal(item: Item): Promise<void>;
}

/**
 * Moves the files an older version left into the blob store
 * (docs/decisions/0065-recordings-and-voice-samples-live-in-one-blob-store-that.md), so that every
 * instance serves them and a deletion run anywhere removes them. Per item: a kept one is stored,
 * then its owner's state is read again and, if a deletion was recorded meanwhile, its blobs are
 * deleted again; either way its local files go. A deletion that ran between the two reads deletes
 * the blobs itself after recording its event, so no order of the two leaves them behind. An item
 * its owner does not keep is only removed (its blobs too, should any be left).
 */
export async function moveLegacyFiles<Item>(files: LegacyFiles<Item>): Promise<LegacyMove> {
  const done: LegacyMove = { moved: 0, removed: 0, left: 0 };
  for (const item of await files.list()) {
    const kept = await files.kept(item);
    if (kept === null) {
      done.left++;
      continue;
    }
    if (kept) {
      await files.store(item);
      if ((await files.kept(item)) !== false) {
        await files.removeLocal(item);
        done.moved++;
        continue;
      }
    }
    await files.unstore(item);
    await files.removeLocal(item);
    done.removed++;
  }
  return done;
}

/** Runs {@link moveLegacyFiles} in the background of a start: the service does not wait for it. */
export function moveLegacyFilesInBackground<Item>(files: LegacyFiles<Item>, logger: Logger): void {
  moveLegacyFiles(files).then(
    (done) => done.moved + done.removed > 0 && logger.log(`older ${files.what}: ${files.summary(done)}`),
    (err: unknown) => logger.warn(`moving older ${files.what} to the store failed: ${String(err)}`),
  );
}
