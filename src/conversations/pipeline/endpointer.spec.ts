import { ENDPOINTING, Endpointer, type EndpointEvent } from './endpointer';
import { OutputQueue } from './output-queue';
import { trimLeadingSilence } from './spoken-answer';

const frame = (n: number): Int16Array => new Int16Array(320).fill(n);

/** Feeds a pattern of frames ('x' voiced, '.' not); returns the events with their frame index. */
function feed(endpointer: Endpointer, pattern: string): { at: number; event: EndpointEvent }[] {
  const events: { at: number; event: EndpointEvent }[] = [];
  [...pattern].forEach((c, i) => {
    const event = endpointer.push(frame(i), c === 'x');
    if (event && event.type !== 'speech') events.push({ at: i, event });
  });
  return events;
}

describe('Endpointer', () => {
  it('starts after 4 voiced frames of 5 (80 ms), with the pre-roll, and ends after 500 ms of silence', () => {
    const endpointer = new Endpointer();
    const events = feed(endpointer, '.'.repeat(30) + 'xxxx' + 'x.x'.repeat(10) + '.'.repeat(25) + '....');
    expect(events.map((e) => [e.at, e.event.type])).toEqual([
      [33, 'speech_start'],
      [33 + 30 + 25, 'speech_end'],
    ]);
    const start = events[0]!.event as Extract<EndpointEvent, { type: 'speech_start' }>;
    // 12 frames of pre-roll (240 ms) before the 5-frame window that decided the start, in order.
    expect(start.audio).toHaveLength(ENDPOINTING.prerollFrames + ENDPOINTING.startWindowFrames);
    expect(start.audio.map((f) => f[0])).toEqual(Array.from({ length: 17 }, (_, i) => 17 + i));
  });

  it('takes a click or a short noise (up to 3 voiced frames in 5) for no speech', () => {
    const endpointer = new Endpointer();
    expect(feed(endpointer, '..x..xx..xxx..x.x.x..xx.x..')).toEqual([]);
    expect(endpointer.inSpeech).toBe(false);
  });

  it('keeps an utterance through pauses shorter than 500 ms, and forgets it on reset', () => {
    const endpointer = new Endpointer();
    const events = feed(endpointer, 'xxxx' + '.'.repeat(24) + 'xxxx' + '.'.repeat(20));
    expect(events.map((e) => e.event.type)).toEqual(['speech_start']);
    expect(endpointer.inSpeech).toBe(true);
    endpointer.reset();
    expect(endpointer.inSpeech).toBe(false);
    expect(feed(endpointer, 'xxx')).toEqual([]);
  });
});

describe('OutputQueue', () => {
  it('gives 20 ms frames at its rate, silence (null) when empty, and knows when each answer started', () => {
    let now = 100;
    const queue = new OutputQueue(8000, () => now);
    const started: [number, number][] = [];
    queue.onFirstFrame((turn, at) => started.push([turn, at]));
    expect(queue.nextFrame()).toBeNull();
    queue.enqueue(1, new Int16Array(400).fill(7)); // 2.5 frames: the last padded with silence
    expect(queue.playing).toBe(true);
    now = 120;
    expect(queue.nextFrame()).toEqual(new Int16Array(160).fill(7));
    queue.nextFrame();
    const last = queue.nextFrame()!;
    expect([last[0], last[79], last[80], last[159]]).toEqual([7, 7, 0, 0]);
    expect(queue.nextFrame()).toBeNull();
    expect(started).toEqual([[1, 120]]);
    expect(queue.playback(1)).toEqual({ queued: 480, played: 480, startedAt: 120 });
  });

  it('flushes at once on a barge-in: the next frame is silence, and what was played is counted', async () => {
    const queue = new OutputQueue(16000, () => 0);
    queue.enqueue(2, new Int16Array(320 * 10).fill(1));
    queue.nextFrame();
    queue.nextFrame();
    const idle = queue.whenIdle();
    expect(queue.flush()).toBe(8);
    await idle;
    expect(queue.nextFrame()).toBeNull();
    expect(queue.playing).toBe(false);
    expect(queue.playback(2)).toEqual({ queued: 3200, played: 640, startedAt: 0 });
  });

  it('resolves whenIdle once the last frame is taken', async () => {
    const queue = new OutputQueue(16000, () => 0);
    await queue.whenIdle();
    queue.enqueue(3, new Int16Array(640));
    let idle = false;
    void queue.whenIdle().then(() => (idle = true));
    queue.nextFrame();
    await Promise.resolve();
    expect(idle).toBe(false);
    queue.nextFrame();
    await Promise.resolve();
    expect(idle).toBe(true);
  });
});

describe('trimLeadingSilence', () => {
  it("drops a synthesiser's leading silence, keeping 10 ms before the first sound", () => {
    const pcm = new Int16Array(4000);
    pcm.fill(50, 0, 3000);
    pcm.fill(2000, 3000);
    const trimmed = trimLeadingSilence(pcm, 16000);
    expect(trimmed.length).toBe(1000 + 160);
    expect(trimmed[160]).toBe(2000);
    expect(trimLeadingSilence(new Int16Array(10), 16000).length).toBe(10);
  });
});
