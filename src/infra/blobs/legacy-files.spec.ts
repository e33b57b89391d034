import { type LegacyFiles, moveLegacyFiles } from './legacy-files';

/** Items by name: what their owner's events say at the first and the second read. */
function files(items: Record<string, [boolean | null, boolean | null]>): LegacyFiles<string> & { calls: string[] } {
  const calls: string[] = [];
  const reads = new Map<string, number>();
  return {
    what: 'things',
    calls,
    summary: (n) => `${n.moved} moved`,
    list: async () => Object.keys(items),
    kept: async (item) => {
      const n = reads.get(item) ?? 0;
      reads.set(item, n + 1);
      return items[item]![n === 0 ? 0 : 1];
    },
    store: async (item) => void calls.push(`store ${item}`),
    unstore: async (item) => void calls.push(`unstore ${item}`),
    removeLocal: async (item) => void calls.push(`removeLocal ${item}`),
  };
}

describe('moveLegacyFiles', () => {
  it('stores a kept item and removes its local files once its owner still keeps it', async () => {
    const f = files({ a: [true, true] });
    await expect(moveLegacyFiles(f)).resolves.toEqual({ moved: 1, removed: 0, left: 0 });
    expect(f.calls).toEqual(['store a', 'removeLocal a']);
  });

  it('deletes the blobs again when a deletion was recorded between the two reads', async () => {
    const f = files({ a: [true, false] });
    await expect(moveLegacyFiles(f)).resolves.toEqual({ moved: 0, removed: 1, left: 0 });
    expect(f.calls).toEqual(['store a', 'unstore a', 'removeLocal a']);
  });

  it('only removes what its owner no longer keeps, and leaves what no owner is known for yet', async () => {
    const f = files({ gone: [false, false], unknown: [null, null] });
    await expect(moveLegacyFiles(f)).resolves.toEqual({ moved: 0, removed: 1, left: 1 });
    expect(f.calls).toEqual(['unstore gone', 'removeLocal gone']);
  });
});
