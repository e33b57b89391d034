import { OutputQueue } from './output-queue';

/** 8 kHz: a 20 ms frame is 160 samples. */
const RATE = 8_000;
const FRAME = 160;

/** `n` samples counting up from `from` (so each frame's content tells where it came from). */
const ramp = (n: number, from = 1) => Int16Array.from({ length: n }, (_, i) => from + i);

describe('OutputQueue (the agent’s voice, in 20 ms frames)', () => {
  let clock: number;
  let queue: OutputQueue;
  beforeEach(() => {
    clock = 1_000;
    queue = new OutputQueue(RATE, () => clock);
  });

  /** Takes every queued frame. */
  const drain = () => {
    const frames: Int16Array[] = [];
    for (let f = queue.nextFrame(); f; f = queue.nextFrame()) frames.push(f);
    return frames;
  };

  it('cuts audio into frames of 20 ms at its rate and pads the last one with silence', () => {
    queue.enqueue(1, ramp(2 * FRAME + 10));
    expect(queue.playback(1).queued).toBe(3 * FRAME);
    const frames = drain();
    expect(frames).toHaveLength(3);
    expect(frames.every((f) => f.length === FRAME)).toBe(true);
    expect(Array.from(frames[0] ?? [])).toEqual(Array.from(ramp(FRAME)));
    expect(Array.from(frames[1] ?? [])).toEqual(Array.from(ramp(FRAME, FRAME + 1)));
    expect(Array.from(frames[2]?.subarray(0, 10) ?? [])).toEqual(Array.from(ramp(10, 2 * FRAME + 1)));
    expect(frames[2]?.subarray(10).every((v) => v === 0)).toBe(true);
    expect(new OutputQueue(16_000, () => 0).nextFrame()).toBeNull();
    const wide = new OutputQueue(48_000, () => 0);
    wide.enqueue(1, ramp(960));
    expect(wide.nextFrame()).toHaveLength(960);
    expect(wide.nextFrame()).toBeNull();
  });

  it('queues nothing for no audio, and a whole number of frames without padding', () => {
    queue.enqueue(1, new Int16Array(0));
    expect(queue.playing).toBe(false);
    expect(queue.playback(1).queued).toBe(0);
    queue.enqueue(2, ramp(2 * FRAME));
    expect(drain()).toHaveLength(2);
    expect(queue.playback(2)).toEqual({ queued: 2 * FRAME, played: 2 * FRAME, startedAt: 1_000 });
  });

  it('plays in the order queued, across answers, and gives null (silence) when empty', () => {
    queue.enqueue(1, ramp(FRAME, 100));
    queue.enqueue(2, ramp(FRAME, 200));
    queue.enqueue(1, ramp(FRAME, 300));
    expect(drain().map((f) => f[0])).toEqual([100, 200, 300]);
    expect(queue.nextFrame()).toBeNull();
    expect(queue.playing).toBe(false);
  });

  it('counts what each answer queued and played, and when its first frame went out (once, to the listener)', () => {
    const firsts: [number, number][] = [];
    queue.onFirstFrame((turn, at) => firsts.push([turn, at]));
    queue.enqueue(1, ramp(3 * FRAME));
    queue.enqueue(2, ramp(FRAME));
    expect(queue.playback(1)).toEqual({ queued: 3 * FRAME, played: 0, startedAt: null });
    clock = 1_500;
    queue.nextFrame();
    clock = 1_520;
    queue.nextFrame();
    expect(queue.playback(1)).toEqual({ queued: 3 * FRAME, played: 2 * FRAME, startedAt: 1_500 });
    clock = 1_540;
    queue.nextFrame();
    clock = 1_560;
    queue.nextFrame();
    expect(queue.playback(2)).toEqual({ queued: FRAME, played: FRAME, startedAt: 1_560 });
    expect(firsts).toEqual([
      [1, 1_500],
      [2, 1_560],
    ]);
  });

  it('hands out a copy of a playback, not its live counters', () => {
    queue.enqueue(1, ramp(2 * FRAME));
    const before = queue.playback(1);
    queue.nextFrame();
    expect(before.played).toBe(0);
    before.played = 99;
    expect(queue.playback(1).played).toBe(FRAME);
  });

  it('a barge-in flush drops every frame not yet played, returns how many, and the next tick is silence', () => {
    queue.enqueue(1, ramp(5 * FRAME));
    queue.nextFrame();
    queue.nextFrame();
    expect(queue.flush()).toBe(3);
    expect(queue.playing).toBe(false);
    expect(queue.nextFrame()).toBeNull();
    // What went out stays counted: the interrupted answer is cut there.
    expect(queue.playback(1)).toMatchObject({ queued: 5 * FRAME, played: 2 * FRAME });
    expect(queue.flush()).toBe(0);
    // The next answer plays normally.
    queue.enqueue(2, ramp(FRAME, 7));
    expect(queue.nextFrame()?.[0]).toBe(7);
  });

  it('whenIdle resolves at once when nothing is queued, else when the last frame is taken or flushed', async () => {
    const order: string[] = [];
    await queue.whenIdle().then(() => order.push('empty'));
    queue.enqueue(1, ramp(2 * FRAME));
    const played = queue.whenIdle().then(() => order.push('played'));
    queue.nextFrame();
    await Promise.resolve();
    expect(order).toEqual(['empty']);
    queue.nextFrame();
    await played;
    expect(order).toEqual(['empty', 'played']);

    queue.enqueue(2, ramp(3 * FRAME));
    const first = queue.whenIdle().then(() => order.push('flushed 1'));
    const second = queue.whenIdle().then(() => order.push('flushed 2'));
    queue.flush();
    await Promise.all([first, second]);
    expect(order).toEqual(['empty', 'played', 'flushed 1', 'flushed 2']);
  });

  describe('underruns: silence in the middle of an answer', () => {
    let underruns: number;
    beforeEach(() => {
      underruns = 0;
      queue.onUnderrun(() => underruns++);
    });

    it('are reported for each empty tick while a piece of the answer that already started is still awaited', () => {
      queue.await(1); // the first sentence
      queue.await(1); // the second
      queue.enqueue(1, ramp(FRAME));
      queue.await(-1);
      expect(queue.nextFrame()).not.toBeNull();
      expect(queue.nextFrame()).toBeNull();
      expect(queue.nextFrame()).toBeNull();
      expect(underruns).toBe(2);
      queue.enqueue(1, ramp(FRAME));
      queue.await(-1);
      expect(queue.nextFrame()).not.toBeNull();
      // Nothing more awaited: the answer is over, the silence that follows is no underrun.
      expect(queue.nextFrame()).toBeNull();
      expect(queue.nextFrame()).toBeNull();
      expect(underruns).toBe(2);
    });

    it('are not reported before the answer’s first frame (the wait for the first audio is no gap)', () => {
      queue.await(1);
      expect(queue.nextFrame()).toBeNull();
      expect(queue.nextFrame()).toBeNull();
      expect(underruns).toBe(0);
    });

    it('are not reported after a flush (barge-in) until an answer plays again', () => {
      queue.await(1);
      queue.enqueue(1, ramp(3 * FRAME));
      queue.nextFrame();
      queue.flush();
      expect(queue.nextFrame()).toBeNull();
      expect(underruns).toBe(0);
      queue.enqueue(2, ramp(FRAME));
      queue.nextFrame();
      expect(queue.nextFrame()).toBeNull();
      expect(underruns).toBe(1); // the piece awaited since before the flush is still missing
    });

    it('never counts fewer than zero pieces awaited', () => {
      queue.await(-1);
      queue.await(-1);
      queue.await(1);
      queue.enqueue(1, ramp(FRAME));
      queue.nextFrame();
      expect(queue.nextFrame()).toBeNull();
      expect(underruns).toBe(1);
    });
  });

  it('keeps the playbacks of the 8 most recent answers only', () => {
    // One answer after the other, as a conversation plays them.
    for (let turn = 1; turn <= 9; turn++) {
      queue.enqueue(turn, ramp(FRAME));
      drain();
    }
    expect(queue.playback(9)).toEqual({ queued: FRAME, played: FRAME, startedAt: 1_000 });
    expect(queue.playback(2)).toEqual({ queued: FRAME, played: FRAME, startedAt: 1_000 });
    // Turn 1 was forgotten when turn 9 came.
    expect(queue.playback(1)).toEqual({ queued: 0, played: 0, startedAt: null });
  });

  it('holds a long answer whole: only a flush drops queued audio', () => {
    const minute = 60 * 50; // frames
    queue.enqueue(1, new Int16Array(minute * FRAME).fill(1));
    expect(queue.playback(1).queued).toBe(minute * FRAME);
    expect(drain()).toHaveLength(minute);
    expect(queue.playback(1).played).toBe(minute * FRAME);
  });
});
