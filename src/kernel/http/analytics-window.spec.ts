import { utcWindow } from './analytics-window';

describe('utcWindow', () => {
  it('is today (UTC) and the days before it, from midnight UTC of the first', () => {
    const w = utcWindow(3, new Date('2026-03-01T23:59:59.999-05:00')); // 04:59 UTC on 2 March
    expect(w.dates).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(w.start.toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });

  it('one day is today alone', () => {
    const w = utcWindow(1, new Date('2026-11-25T00:00:00.000Z'));
    expect(w.dates).toEqual(['2026-11-25']);
    expect(w.start.toISOString()).toBe('2026-11-25T00:00:00.000Z');
  });
});
