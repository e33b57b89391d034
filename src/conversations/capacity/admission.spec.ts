import { type AdmissionLimits, admits, afterWindow, DEFAULT_LIMITS, type Headroom, OPEN, strainsOf } from './admission';

const LIMITS: AdmissionLimits = { ...DEFAULT_LIMITS, maxConversations: 4 };
const CALM: Headroom = { loopDelayP99Ms: 12, frameLatenessP99Ms: 2, recognizerOldestMs: 300 };

describe('admission', () => {
  it('admits up to MAX_CONVERSATIONS while the headroom is there, then refuses with max_conversations', () => {
    expect([0, 1, 2, 3].map((active) => admits(OPEN, active, LIMITS))).toEqual(Array(4).fill({ admit: true }));
    expect(admits(OPEN, 4, LIMITS)).toEqual({ admit: false, reason: 'max_conversations' });
    expect(admits(OPEN, 9, LIMITS)).toEqual({ admit: false, reason: 'max_conversations' });
  });

  it('names each strain past its limit, and none at the limit itself', () => {
    expect(strainsOf(CALM, LIMITS)).toEqual([]);
    const atLimits = {
      loopDelayP99Ms: LIMITS.loopDelayMs,
      frameLatenessP99Ms: LIMITS.frameLatenessMs,
      recognizerOldestMs: LIMITS.recognizerWaitMs,
    };
    expect(strainsOf(atLimits, LIMITS)).toEqual([]);
    expect(strainsOf({ ...CALM, loopDelayP99Ms: 41 }, LIMITS)).toEqual(['event_loop']);
    expect(strainsOf({ ...CALM, frameLatenessP99Ms: 16 }, LIMITS)).toEqual(['frame_lateness']);
    expect(strainsOf({ ...CALM, recognizerOldestMs: 1_501 }, LIMITS)).toEqual(['recognizer']);
    expect(strainsOf({ loopDelayP99Ms: 90, frameLatenessP99Ms: 60, recognizerOldestMs: 4_000 }, LIMITS)).toEqual([
      'event_loop',
      'frame_lateness',
      'recognizer',
    ]);
  });

  it('a strained window closes admission until two calm windows have followed it', () => {
    let state = afterWindow(OPEN, { ...CALM, frameLatenessP99Ms: 40 }, LIMITS);
    expect(state).toEqual({ closedFor: LIMITS.coolDownWindows, strains: ['frame_lateness'] });
    const seen: boolean[] = [];
    for (let window = 0; window < LIMITS.coolDownWindows + 1; window++) {
      seen.push(admits(state, 2, LIMITS).admit);
      state = afterWindow(state, CALM, LIMITS);
    }
    // Closed after the strained window and the first calm one, open after the second calm one.
    expect(seen).toEqual([false, false, true]);
    expect(state).toEqual(OPEN);
  });

  it('a strain while closed starts the cool-down again', () => {
    let state = afterWindow(OPEN, { ...CALM, loopDelayP99Ms: 80 }, LIMITS);
    state = afterWindow(state, CALM, LIMITS);
    state = afterWindow(state, { ...CALM, recognizerOldestMs: 2_000 }, LIMITS);
    expect(state).toEqual({ closedFor: LIMITS.coolDownWindows, strains: ['recognizer'] });
  });

  it('closed by headroom, the refusal says so; an instance carrying nothing admits all the same', () => {
    const closed = afterWindow(OPEN, { ...CALM, loopDelayP99Ms: 200 }, LIMITS);
    expect(admits(closed, 1, LIMITS)).toEqual({ admit: false, reason: 'headroom' });
    expect(admits(closed, 0, LIMITS)).toEqual({ admit: true });
    // The cap is the cap, closed or not.
    expect(admits(closed, 4, LIMITS)).toEqual({ admit: false, reason: 'max_conversations' });
  });
});
