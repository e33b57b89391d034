import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a client of its own: COMMIT when it resolves, ROLLBACK when it
 * throws (the error is rethrown), and the client always goes back to the pool.
 * `begin` may add settings to the transaction, e.g. `BEGIN; SET LOCAL synchronous_commit = off`.
 */
export async function inTransaction<T>(pool: Pool, work: (tx: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const tx = await pool.connect();
  try {
    await tx.query(begin);
    const result = await work(tx);
    await tx.query('COMMIT');
    return result;
  } catch (err) {
    await tx.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    tx.release();
  }
}
