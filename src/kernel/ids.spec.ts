/** Resource ids: their form, and random bytes drawn in blocks but never handed out twice. */
import { idFromSeed, newId, newRequestId } from './ids';

describe('newId', () => {
  it('is the prefix and 20 base-36 characters, different every time across many refills of its pool', () => {
    const ids = Array.from({ length: 2000 }, () => newId('ses'));
    for (const id of ids) expect(id).toMatch(/^ses_[0-9a-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // No id repeats a neighbour's characters: each takes fresh bytes from the pool.
    const bodies = ids.map((id) => id.slice(4));
    expect(bodies.some((body, i) => i > 0 && body === bodies[i - 1])).toBe(false);
    // Every character of the alphabet turns up somewhere (the bytes are random, not a fixed block).
    expect(new Set(bodies.join('')).size).toBe(36);
  });

  it('request ids are req_ and 24 hex digits, different every time, drawn from the same pool as resource ids', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? newId('ses') : newRequestId()));
    const requestIds = ids.filter((id) => id.startsWith('req_'));
    for (const id of requestIds) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(requestIds).size).toBe(requestIds.length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('from a seed is the same id every time', () => {
    expect(idFromSeed('ses', 'tenant:key')).toBe(idFromSeed('ses', 'tenant:key'));
    expect(idFromSeed('ses', 'tenant:key')).not.toBe(idFromSeed('ses', 'tenant:other'));
  });
});
