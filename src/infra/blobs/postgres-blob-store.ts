import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../database/transaction';
import { checkKey, checkPrefix, type BlobBody, type BlobRead, type BlobStore } from './blob-store.port';

/** Bytes per `blob_chunks` row: a blob is read and written one chunk at a time. */
export const CHUNK_BYTES = 1024 * 1024;

/** A put's chunks are found unreferenced this long after they were written only after a crash. */
const ORPHAN_AGE = '1 day';

/**
 * Blobs in PostgreSQL (the default store): `blobs` names them (key → content), `blob_chunks` holds a
 * content's bytes in 1 MiB rows, so that neither a put nor a read holds a whole recording in memory.
 *
 * - A put writes its chunks under a new content id, each row in its own short statement (never one
 *   long transaction: an open write transaction would hold back every event reader, see
 *   docs/architecture.md), then points the key at it in one short transaction. Readers therefore see
 *   the old blob or the whole new one. A put that fails removes its chunks; one cut short by a crash
 *   leaves chunks no key names, removed by `sweepOrphans` a day later.
 * - A copy points another key at the same content: no bytes move (the simulator's recordings are
 *   copies of one synthesised file per call length). A copy to a key that does not exist yet is one
 *   INSERT; only one that replaces a key takes the key's lock and drops what it no longer names.
 * - A delete removes the key and, in the same transaction, the content once no key names it. The
 *   content's advisory lock makes two deletes of keys sharing it see each other; a copy locks its
 *   source row, so a copy and a delete of the source are ordered.
 */
export class PostgresBlobStore implements BlobStore {
  readonly kind = 'postgres';

  constructor(private readonly pool: Pool) {}

  async put(key: string, body: BlobBody, contentType: string): Promise<void> {
    checkKey(key);
    const contentId = randomUUID();
    try {
      const size = await this.writeChunks(contentId, body);
      await inTransaction(this.pool, async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`blob:${key}`]);
        const old = await tx.query<{ content_id: string }>('SELECT content_id FROM blobs WHERE key = $1 FOR UPDATE', [
          key,
        ]);
        await tx.query(
          `INSERT INTO blobs (key, content_id, content_type, size) VALUES ($1, $2, $3, $4)
           ON CONFLICT (key) DO UPDATE SET content_id = EXCLUDED.content_id, content_type = EXCLUDED.content_type,
             size = EXCLUDED.size, created_at = now()`,
          [key, contentId, contentType, size],
        );
        await dropUnreferenced(
          tx,
          old.rows.map((r) => r.content_id),
        );
      });
    } catch (err) {
      await this.pool.query('DELETE FROM blob_chunks WHERE content_id = $1', [contentId]).catch(() => undefined);
      throw err;
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    checkKey(from);
    checkKey(to);
    if (from === to) return (await this.pool.query('SELECT 1 FROM blobs WHERE key = $1', [from])).rowCount === 1;
    // The usual copy names a new key (a call's recording): one statement. The source row is locked
    // FOR SHARE as below; a key that exists already (or a missing source) takes the full path.
    const fresh = await this.pool.query({
      name: 'blobs_copy_to_new_key',
      text: `INSERT INTO blobs (key, content_id, content_type, size)
       SELECT $2, content_id, content_type, size FROM blobs WHERE key = $1 FOR SHARE
       ON CONFLICT (key) DO NOTHING`,
      values: [from, to],
    });
    if (fresh.rowCount === 1) return true;
    return inTransaction(this.pool, async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`blob:${to}`]);
      const old = await tx.query<{ content_id: string }>('SELECT content_id FROM blobs WHERE key = $1 FOR UPDATE', [
        to,
      ]);
      // FOR SHARE: a delete of the source waits for this copy, or this copy for it (and then finds nothing).
      const source = await tx.query<{ content_id: string; content_type: string; size: string }>(
        'SELECT content_id, content_type, size FROM blobs WHERE key = $1 FOR SHARE',
        [from],
      );
      const row = source.rows[0];
      if (!row) return false;
      await tx.query(
        `INSERT INTO blobs (key, content_id, content_type, size) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET content_id = EXCLUDED.content_id, content_type = EXCLUDED.content_type,
           size = EXCLUDED.size, created_at = now()`,
        [to, row.content_id, row.content_type, row.size],
      );
      await dropUnreferenced(
        tx,
        old.rows.map((r) => r.content_id).filter((id) => id !== row.content_id),
      );
      return true;
    });
  }

  async open(key: string): Promise<BlobRead | null> {
    checkKey(key);
    const { rows } = await this.pool.query<{ content_id: string; content_type: string; size: string }>(
      'SELECT content_id, content_type, size FROM blobs WHERE key = $1',
      [key],
    );
    const row = rows[0];
    if (!row) return null;
    const size = Number(row.size);
    return { size, contentType: row.content_type, stream: Readable.from(this.chunks(key, row.content_id, size)) };
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await inTransaction(this.pool, async (tx) => {
      const { rows } = await tx.query<{ content_id: string }>('DELETE FROM blobs WHERE key = $1 RETURNING content_id', [
        key,
      ]);
      await dropUnreferenced(
        tx,
        rows.map((r) => r.content_id),
      );
    });
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkPrefix(prefix);
    const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return inTransaction(this.pool, async (tx) => {
      const { rows } = await tx.query<{ content_id: string }>(
        `DELETE FROM blobs WHERE key LIKE $1 ESCAPE '\\' RETURNING content_id`,
        [pattern],
      );
      await dropUnreferenced(
        tx,
        rows.map((r) => r.content_id),
      );
      return rows.length;
    });
  }

  /** Removes chunks of puts that a crash cut short (no key names them, written over a day ago). */
  async sweepOrphans(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM blob_chunks c WHERE c.created_at < now() - interval '${ORPHAN_AGE}'
         AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.content_id = c.content_id)`,
    );
    return rowCount ?? 0;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Writes `body` as rows of CHUNK_BYTES (the last one shorter); answers the size written. */
  private async writeChunks(contentId: string, body: BlobBody): Promise<number> {
    let seq = 0;
    let size = 0;
    const insert = async (bytes: Buffer) => {
      await this.pool.query('INSERT INTO blob_chunks (content_id, seq, bytes) VALUES ($1, $2, $3)', [
        contentId,
        seq++,
        bytes,
      ]);
      size += bytes.length;
    };
    if (Buffer.isBuffer(body)) {
      for (let at = 0; at < body.length; at += CHUNK_BYTES) await insert(body.subarray(at, at + CHUNK_BYTES));
      return size;
    }
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const piece of body.stream as AsyncIterable<Buffer | string>) {
      let chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      while (chunk.length > 0) {
        const take = Math.min(chunk.length, CHUNK_BYTES - pendingBytes);
        pending.push(chunk.subarray(0, take));
        pendingBytes += take;
        chunk = chunk.subarray(take);
        if (pendingBytes === CHUNK_BYTES) {
          await insert(Buffer.concat(pending));
          pending = [];
          pendingBytes = 0;
        }
      }
    }
    if (pendingBytes > 0) await insert(Buffer.concat(pending));
    if (size !== body.size) throw new Error(`the stream gave ${size} bytes, not the ${body.size} announced`);
    return size;
  }

  /** The content's chunks in order, each read when the consumer wants it. */
  private async *chunks(key: string, contentId: string, size: number): AsyncGenerator<Buffer> {
    let read = 0;
    for (let seq = 0; read < size; seq++) {
      const { rows } = await this.pool.query<{ bytes: Buffer }>(
        'SELECT bytes FROM blob_chunks WHERE content_id = $1 AND seq = $2',
        [contentId, seq],
      );
      const bytes = rows[0]?.bytes;
      if (!bytes) throw new Error(`blob ${key} was deleted while it was read`);
      read += bytes.length;
      yield bytes;
    }
  }
}

/**
 * Drops the chunks of contents no key names any more. Each content's advisory lock is taken first
 * (in order, so that two transactions never wait on each other in a cycle), so that the check sees
 * what any other transaction that locked it committed.
 */
async function dropUnreferenced(tx: PoolClient, contentIds: readonly string[]): Promise<void> {
  const ids = [...new Set(contentIds)].sort();
  if (ids.length === 0) return;
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended(id, 0)) FROM unnest($1::text[]) AS id ORDER BY id', [
    ids.map((id) => `blob-content:${id}`),
  ]);
  await tx.query(
    `DELETE FROM blob_chunks c WHERE c.content_id = ANY($1::uuid[])
       AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.content_id = c.content_id)`,
    [ids],
  );
}
