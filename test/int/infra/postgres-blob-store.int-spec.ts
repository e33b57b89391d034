/**
 * The blob store contract on PostgreSQL (the default store), and what only this adapter does: bytes
 * in rows of 1 MiB, no transaction held open while a put streams, and the sweep of a put cut short.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { CHUNK_BYTES, PostgresBlobStore } from '../../../src/infra/blobs/postgres-blob-store';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { describeBlobStoreContract } from './blob-store.contract';

jest.setTimeout(60_000);

describeBlobStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  return {
    store: new PostgresBlobStore(db.pool),
    namespace: 'contract',
    cleanup: () => db.drop(),
    bytesHeld: async () =>
      Number((await db.pool.query('SELECT coalesce(sum(length(bytes)), 0) AS n FROM blob_chunks')).rows[0].n),
  };
});

describe('PostgresBlobStore', () => {
  let db: TestDatabase;
  let store: PostgresBlobStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresBlobStore(db.pool);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('keeps a blob in rows of at most 1 MiB, and a delete removes the rows', async () => {
    await store.put('recordings/rec_rows.wav', randomBytes(2 * CHUNK_BYTES + 10), 'audio/wav');
    const { rows } = await db.pool.query<{ seq: number; n: number }>(
      `SELECT c.seq, length(c.bytes) AS n FROM blob_chunks c JOIN blobs b USING (content_id)
        WHERE b.key = 'recordings/rec_rows.wav' ORDER BY c.seq`,
    );
    expect(rows).toEqual([
      { seq: 0, n: CHUNK_BYTES },
      { seq: 1, n: CHUNK_BYTES },
      { seq: 2, n: 10 },
    ]);
    await store.delete('recordings/rec_rows.wav');
    expect((await db.pool.query('SELECT count(*)::int AS n FROM blob_chunks')).rows[0].n).toBe(0);
  });

  it('holds no transaction open while a put waits for more bytes (event readers are never held back)', async () => {
    const body = new PassThrough();
    const put = store.put('recordings/rec_slow.wav', { stream: body, size: CHUNK_BYTES + 5 }, 'audio/wav');
    body.write(randomBytes(CHUNK_BYTES));
    // The first chunk is written; the put now waits for the rest with nothing open.
    await eventually(async () => {
      expect((await db.pool.query('SELECT count(*)::int AS n FROM blob_chunks')).rows[0].n).toBe(1);
    });
    const open = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND (state LIKE 'idle in transaction%' OR backend_xid IS NOT NULL)`,
    );
    expect(open.rows[0]!.n).toBe(0);
    expect(await store.open('recordings/rec_slow.wav')).toBeNull();
    body.end(randomBytes(5));
    await put;
    expect((await store.open('recordings/rec_slow.wav'))?.size).toBe(CHUNK_BYTES + 5);
  });

  it('a put whose stream fails leaves no rows; rows of a put cut short by a crash are swept a day later', async () => {
    const chunks = async () => (await db.pool.query('SELECT count(*)::int AS n FROM blob_chunks')).rows[0].n as number;
    const before = await chunks();
    const body = new PassThrough();
    const put = store.put('recordings/rec_cut.wav', { stream: body, size: 3 * CHUNK_BYTES }, 'audio/wav');
    body.write(randomBytes(CHUNK_BYTES + 1));
    await eventually(async () => expect(await chunks()).toBeGreaterThan(before));
    body.destroy(new Error('client went away'));
    await expect(put).rejects.toThrow('client went away');
    expect(await chunks()).toBe(before);

    // A crash between the chunks and the key: rows nobody names, swept once older than a day.
    await db.pool.query(
      `INSERT INTO blob_chunks (content_id, seq, bytes, created_at) VALUES
         (gen_random_uuid(), 0, '\\x00', now() - interval '2 days'), (gen_random_uuid(), 0, '\\x00', now())`,
    );
    await store.put('recordings/rec_kept.wav', Buffer.from('kept'), 'audio/wav');
    await db.pool.query(`UPDATE blob_chunks SET created_at = now() - interval '3 days'`);
    expect(await store.sweepOrphans()).toBe(2);
    expect(await chunks()).toBe(before + 1);
    expect((await store.open('recordings/rec_kept.wav'))?.size).toBe(4);
  });
});
