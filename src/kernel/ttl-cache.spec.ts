import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('forgets an entry once its time is up', () => {
    let now = 0;
    const cache = new TtlCache<string, number>(1000, 10, () => now);
    cache.set('a', 1);
    now = 999;
    expect(cache.get('a')).toBe(1);
    now = 1000;
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps at most maxEntries, the oldest set going first', () => {
    const cache = new TtlCache<string, number>(1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    cache.set('c', 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(3);
    expect(cache.get('c')).toBe(4);
  });

  it('deletes by value', () => {
    const cache = new TtlCache<string, { t: string }>(1000, 10);
    cache.set('a', { t: 'x' });
    cache.set('b', { t: 'y' });
    cache.set('c', { t: 'x' });
    cache.deleteWhere((v) => v.t === 'x');
    expect(cache.size).toBe(1);
    expect(cache.get('b')).toEqual({ t: 'y' });
  });
});
