import { MediaClock, type MediaTick } from './media-clock';

/**
 * Deterministic: jest's fake timers fire the clock's timeouts, and the clock reads an injected time
 * (`t`) that a test moves with them, or alone to make a tick "take" time (a stall).
 */
describe('MediaClock', () => {
  let t: number;
  beforeEach(() => {
    jest.useFakeTimers();
    t = 1_000;
  });
  afterEach(() => jest.useRealTimers());

  /** Real time passes: the injected clock and the timers move together, 1 ms at a time. */
  const advance = (ms: number): void => {
    for (let i = 0; i < ms; i++) {
      t += 1;
      jest.advanceTimersByTime(1);
    }
  };

  const clockWith = (opts: { maxCatchUp?: number; onError?: (e: Error) => void } = {}) =>
    new MediaClock({ maxCatchUp: opts.maxCatchUp ?? 5, now: () => t, onError: opts.onError ?? (() => undefined) });

  it('ticks every 20 ms from one frame after start, with consecutive indexes, on time', () => {
    const clock = clockWith();
    const ticks: MediaTick[] = [];
    clock.start((tick) => ticks.push(tick));
    advance(19);
    expect(ticks).toEqual([]);
    advance(1);
    advance(80);
    expect(ticks.map((k) => [k.index, k.now - 1_000, k.lateMs, k.skipped])).toEqual([
      [0, 20, 0, 0],
      [1, 40, 0, 0],
      [2, 60, 0, 0],
      [3, 80, 0, 0],
      [4, 100, 0, 0],
    ]);
    expect(clock.index).toBe(5);
  });

  it('corrects drift: ticks that take 7 ms each do not push the next ones later (50 in a second)', () => {
    const clock = clockWith();
    const at: number[] = [];
    clock.start(() => {
      at.push(t - 1_000);
      t += 7; // the tick's own work, while the timers stand still
    });
    // A second on the clock (the timers see less of it: 7 ms per tick pass while they stand still).
    while (t < 2_000) advance(1);
    expect(at.length).toBe(50);
    expect(at.slice(0, 3)).toEqual([20, 40, 60]);
    expect(at.every((ms, i) => ms === (i + 1) * 20)).toBe(true);
  });

  it('starts after the delay asked for', () => {
    const clock = clockWith();
    const at: number[] = [];
    clock.start(() => at.push(t - 1_000), 300);
    advance(339);
    expect(at).toEqual([300, 320]);
  });

  it('after a short stall runs every tick due at once, late; after a long one at most maxCatchUp, skipping the older', () => {
    const clock = clockWith({ maxCatchUp: 3 });
    const ticks: MediaTick[] = [];
    clock.start((tick) => {
      ticks.push(tick);
      if (tick.index === 1) t += 45; // stalls 45 ms: ticks 2 and 3 are due at once after it
      if (tick.index === 5) t += 205; // stalls 205 ms: ten ticks due, three run
    });
    advance(40); // ticks 0, 1 (which stalls until 85)
    advance(1); // the timer set for 60 fires at 86
    expect(ticks.slice(2).map((k) => [k.index, k.lateMs, k.skipped])).toEqual([
      [2, 26, 0],
      [3, 6, 0],
    ]);
    advance(34); // tick 4 at 100, tick 5 at 120, which stalls until 325 (ticks 6 to 15 due by then)
    advance(1);
    expect(ticks.slice(4).map((k) => [k.index, k.lateMs, k.skipped])).toEqual([
      [4, 0, 0],
      [5, 0, 0],
      [13, 46, 7],
      [14, 26, 0],
      [15, 6, 0],
    ]);
    advance(15); // back in step: 16 is due at 340
    expect(ticks.at(-1)).toMatchObject({ index: 16, lateMs: 0, skipped: 0 });
    expect(clock.index).toBe(17);
  });

  it('stops: no tick after stop, also when stopped from inside a tick; a stopped clock does not start again', () => {
    const a = clockWith();
    const ticksA: number[] = [];
    a.start((tick) => ticksA.push(tick.index));
    advance(50);
    a.stop();
    advance(100);
    expect(ticksA).toEqual([0, 1]);
    expect(a.running).toBe(false);
    a.start((tick) => ticksA.push(tick.index));
    advance(100);
    expect(ticksA).toEqual([0, 1]);

    const b = clockWith();
    const ticksB: number[] = [];
    b.start((tick) => {
      ticksB.push(tick.index);
      if (tick.index === 0) t += 100; // a stall: ticks 1 to 5 are due at the next firing
      if (tick.index === 3) b.stop();
    });
    advance(200);
    expect(ticksB).toEqual([0, 1, 2, 3]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a tick that throws stops the clock and is reported once, never thrown out of the timer', () => {
    const errors: Error[] = [];
    const clock = clockWith({ onError: (e) => errors.push(e) });
    let ticks = 0;
    clock.start(() => {
      ticks++;
      if (ticks === 2) throw new Error('send failed');
    });
    expect(() => advance(200)).not.toThrow();
    expect(ticks).toBe(2);
    expect(errors.map((e) => e.message)).toEqual(['send failed']);
    expect(clock.running).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a thrown non-error is reported as an Error; a failing error handler does not escape either', () => {
    const errors: Error[] = [];
    const reported = clockWith({ onError: (e) => errors.push(e) });
    reported.start(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a careless dependency may do
      throw 'a string';
    });
    const careless = clockWith({
      onError: () => {
        throw new Error('the handler failed too');
      },
    });
    careless.start(() => {
      throw new Error('tick');
    });
    expect(() => advance(40)).not.toThrow();
    expect(errors.map((e) => [e instanceof Error, e.message])).toEqual([[true, 'a string']]);
    expect(careless.running).toBe(false);
  });
});
