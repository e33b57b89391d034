import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from '../../../src/infra/blobs/blob-store.port';

/**
 * What the harness of one blob store provides besides the store. Keys of a run all start with
 * `namespace/`, so that the suite can run against a shared server without touching anything else.
 */
export interface BlobStoreFixture {
  store: BlobStore;
  namespace: string;
  cleanup: () => Promise<void>;
  /** Bytes the store still holds under the namespace, however it holds them (rows, objects). */
  bytesHeld: () => Promise<number>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/** A stream of `bytes` given in uneven pieces, as a file or a socket gives them. */
function piecewise(bytes: Buffer): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0, n = 1; at < bytes.length; at += n, n = (n * 7 + 13_001) % 300_000)
    pieces.push(bytes.subarray(at, at + n));
  return Readable.from(pieces);
}

/** The blob store contract: every adapter passes the same cases. */
export function describeBlobStoreContract(name: string, make: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let f: BlobStoreFixture;
    const k = (key: string) => `${f.namespace}/${key}`;
    const text = async (key: string) => {
      const blob = await f.store.open(k(key));
      return blob ? (await readAll(blob.stream)).toString('utf8') : null;
    };

    beforeAll(async () => {
      f = await make();
    });
    afterAll(async () => {
      await f?.cleanup();
    });

    it('stores bytes with their type and size, and reads them back; an absent key is null', async () => {
      await f.store.put(k('a/one.wav'), Buffer.from('RIFF one'), 'audio/wav');
      const blob = await f.store.open(k('a/one.wav'));
      expect(blob).toMatchObject({ size: 8, contentType: 'audio/wav' });
      expect((await readAll(blob!.stream)).toString()).toBe('RIFF one');
      expect(await f.store.open(k('a/none.wav'))).toBeNull();
    });

    it('stores a stream of several MiB given in uneven pieces, and gives back exactly its bytes', async () => {
      const bytes = randomBytes(2 * 1024 * 1024 + 12_345);
      await f.store.put(k('big/rec.wav'), { stream: piecewise(bytes), size: bytes.length }, 'audio/wav');
      const blob = await f.store.open(k('big/rec.wav'));
      expect(blob?.size).toBe(bytes.length);
      expect((await readAll(blob!.stream)).equals(bytes)).toBe(true);
    });

    it('a stream shorter than announced stores nothing', async () => {
      const bytes = randomBytes(1000);
      await expect(
        f.store.put(k('short.wav'), { stream: Readable.from([bytes]), size: 1500 }, 'audio/wav'),
      ).rejects.toThrow();
      expect(await f.store.open(k('short.wav'))).toBeNull();
    });

    it('a put replaces what was under the key', async () => {
      await f.store.put(k('replace.txt'), Buffer.from('first'), 'text/plain');
      await f.store.put(k('replace.txt'), Buffer.from('second, longer'), 'text/csv');
      const blob = await f.store.open(k('replace.txt'));
      expect(blob).toMatchObject({ size: 14, contentType: 'text/csv' });
      expect((await readAll(blob!.stream)).toString()).toBe('second, longer');
    });

    it('a copy is readable on its own: deleting the source leaves it; copying nothing is false', async () => {
      await f.store.put(k('tpl/45s.wav'), Buffer.from('template audio'), 'audio/wav');
      expect(await f.store.copy(k('tpl/45s.wav'), k('rec/r1.wav'))).toBe(true);
      expect(await f.store.copy(k('tpl/45s.wav'), k('rec/r2.wav'))).toBe(true);
      await f.store.delete(k('tpl/45s.wav'));
      expect(await text('tpl/45s.wav')).toBeNull();
      expect(await text('rec/r1.wav')).toBe('template audio');
      await f.store.delete(k('rec/r1.wav'));
      expect(await text('rec/r2.wav')).toBe('template audio');
      expect((await f.store.open(k('rec/r2.wav')))?.contentType).toBe('audio/wav');
      expect(await f.store.copy(k('tpl/none.wav'), k('rec/r3.wav'))).toBe(false);
      expect(await f.store.open(k('rec/r3.wav'))).toBeNull();
    });

    it('a delete is final and safe to repeat, also of what was never stored', async () => {
      await f.store.put(k('gone.wav'), Buffer.from('bye'), 'audio/wav');
      await f.store.delete(k('gone.wav'));
      await f.store.delete(k('gone.wav'));
      await f.store.delete(k('never.wav'));
      expect(await f.store.open(k('gone.wav'))).toBeNull();
    });

    it('deletePrefix removes the keys under the prefix only (underscores and percent signs are not wildcards)', async () => {
      const keys = ['voices/voi_a/01.wav', 'voices/voi_a/02.flac', 'voices/voiXa/01.wav', 'voices/voi_ab/01.wav'];
      for (const key of keys) await f.store.put(k(key), Buffer.from(key), 'audio/wav');
      expect(await f.store.deletePrefix(k('voices/voi_a/'))).toBe(2);
      expect(await text('voices/voi_a/01.wav')).toBeNull();
      expect(await text('voices/voi_a/02.flac')).toBeNull();
      expect(await text('voices/voiXa/01.wav')).toBe('voices/voiXa/01.wav');
      expect(await text('voices/voi_ab/01.wav')).toBe('voices/voi_ab/01.wav');
      expect(await f.store.deletePrefix(k('voices/voi_a/'))).toBe(0);
    });

    it('deletePrefix goes through more keys than one page', async () => {
      for (let i = 0; i < 7; i++) await f.store.put(k(`many/${i}.wav`), Buffer.from(`n${i}`), 'audio/wav');
      expect(await f.store.deletePrefix(k('many/'))).toBe(7);
      for (let i = 0; i < 7; i++) expect(await f.store.open(k(`many/${i}.wav`))).toBeNull();
    });

    it('refuses keys that are not plain relative paths', async () => {
      for (const bad of ['../etc/passwd', '/abs.wav', 'a//b.wav', 'a/../b.wav', '', 'a b.wav', 'a/.hidden'])
        await expect(f.store.put(bad, Buffer.from('x'), 'audio/wav')).rejects.toThrow(/not a blob key/);
      await expect(f.store.open('../x')).rejects.toThrow(/not a blob key/);
    });

    it('once every key is deleted, the store holds none of their bytes (copies and replaced puts included)', async () => {
      await f.store.put(k('shared/src.wav'), randomBytes(300_000), 'audio/wav');
      await f.store.copy(k('shared/src.wav'), k('shared/c1.wav'));
      await f.store.copy(k('shared/src.wav'), k('shared/c2.wav'));
      // Two keys sharing one content deleted at the same time: neither may leave the bytes behind.
      await Promise.all([f.store.delete(k('shared/c1.wav')), f.store.delete(k('shared/src.wav'))]);
      expect(await f.store.open(k('shared/c2.wav'))).not.toBeNull();
      await f.store.delete(k('shared/c2.wav'));
      for (const key of ['a/one.wav', 'big/rec.wav', 'replace.txt', 'rec/r2.wav']) await f.store.delete(k(key));
      await f.store.deletePrefix(k('voices/'));
      expect(await f.bytesHeld()).toBe(0);
    });
  });
}
