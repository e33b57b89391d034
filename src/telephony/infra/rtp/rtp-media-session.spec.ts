import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type FrameSource, OutputQueue } from '../../../conversations/index';
import type { MediaBinding } from '../sip/call-media';
import { RtpCallMedia } from './rtp-call-media';
import { AHEAD_FRAMES } from './rtp-media-session';
import { buildOffer } from './sdp';

/**
 * The media thread keeps a call's pacing while the main thread is blocked. The peer that measures it
 * must not share the blocked loop: it is a worker thread of its own, timing each packet's arrival and
 * telling whether it carried the tone or silence (G.711 µ-law silence is 0xff or 0x7f).
 */
const PEER = `
const { parentPort } = require('node:worker_threads');
const socket = require('node:dgram').createSocket('udp4');
const packets = [];
socket.on('message', (m) => {
  const payload = m.subarray(12);
  let loud = 0;
  for (const b of payload) if (b !== 0xff && b !== 0x7f) loud++;
  packets.push({ at: performance.timeOrigin + performance.now(), tone: loud > payload.length / 2 });
});
socket.bind(0, '127.0.0.1', () => parentPort.postMessage(socket.address().port));
parentPort.on('message', () => { parentPort.postMessage(packets); socket.close(); });
`;

interface Arrival {
  at: number;
  tone: boolean;
}

const PORTS = { first: 47720, last: 47739 };
const binding: MediaBinding = { publicHost: '127.0.0.1', onLost: () => undefined };
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the main thread's event loop busy for `ms`: no timer, socket or message runs meanwhile. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/** `n` frames of the tone, as one piece of an answer. */
const tones = (n: number): Int16Array => {
  const out = new Int16Array(160 * n);
  for (let i = 0; i < n; i++) out.set(tone(), i * 160);
  return out;
};

const tone = (): Int16Array =>
  Int16Array.from({ length: 160 }, (_, i) => Math.round(8000 * Math.sin((i * Math.PI) / 4)));

async function peer(): Promise<{ port: number; arrivals: () => Promise<Arrival[]>; stop: () => Promise<number> }> {
  const worker = new Worker(PEER, { eval: true });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  return {
    port,
    arrivals: () =>
      new Promise<Arrival[]>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('done');
      }),
    stop: () => worker.terminate(),
  };
}

/** The gaps between packets after the first `skip`, in ms. */
const gaps = (arrivals: Arrival[], skip: number) =>
  arrivals.slice(skip + 1).map((a, i) => a.at - (arrivals[skip + i]?.at ?? a.at));

describe('RtpMediaSession: a call’s RTP paced on the media thread', () => {
  const media = new RtpCallMedia({ host: '127.0.0.1', ports: PORTS, rtpTimeoutMs: 0 });

  it('keeps sending every 20 ms, the agent’s audio queued ahead, while the main thread is blocked', async () => {
    const listener = await peer();
    const offered = await media.offer(binding);
    try {
      offered.complete(buildOffer('127.0.0.1', listener.port));
      const source: FrameSource = { nextFrame: tone };
      offered.media.play(source);
      await sleep(400);
      // Less than what is queued ahead: the peer must hear the tone throughout, on time.
      block(AHEAD_FRAMES * 20 - 60);
      await sleep(200);
      // Far more than is queued: the peer hears silence once it runs out, but still one packet per 20 ms.
      const secondBlockAt = clock();
      block(600);
      await sleep(200);
      offered.media.close();
      const arrivals = await listener.arrivals();
      expect(arrivals.length).toBeGreaterThan(60);
      const steady = gaps(arrivals, 5);
      // A packet every 20 ms throughout: no gap near either block's length.
      expect(Math.max(...steady)).toBeLessThan(60);
      // The first block (140 ms) was covered by what was queued: no silence from the start of the tone
      // until the second block had run the queue out (some silence then, and the tone again after).
      const firstTone = arrivals.findIndex((a) => a.tone);
      const firstSilence = arrivals.find((a, i) => i > firstTone && !a.tone);
      expect(firstTone).toBeGreaterThanOrEqual(0);
      expect(firstSilence?.at).toBeGreaterThan(secondBlockAt + 100);
      expect(arrivals.filter((a, i) => i > firstTone && !a.tone).length).toBeGreaterThan(5);
      expect(arrivals.slice(-5).some((a) => a.tone)).toBe(true);
    } finally {
      offered.media.close();
      await listener.stop();
    }
  });

  it('drops the audio queued ahead when the source is flushed (a barge-in): silence within a frame or two', async () => {
    const listener = await peer();
    const offered = await media.offer(binding);
    try {
      offered.complete(buildOffer('127.0.0.1', listener.port));
      const queue = new OutputQueue(8000, () => performance.now());
      queue.enqueue(1, tones(100)); // 2 s of the agent's answer
      offered.media.play(queue);
      await sleep(400);
      const flushedAt = clock();
      queue.flush();
      await sleep(400);
      offered.media.close();
      const arrivals = await listener.arrivals();
      const toneAfter = arrivals.filter((a) => a.tone && a.at > flushedAt);
      // Without the flush reaching the thread, 200 ms of tone (10 frames) taken ahead would still be heard.
      expect(toneAfter.length).toBeLessThanOrEqual(2);
      expect(arrivals.filter((a) => a.tone && a.at < flushedAt).length).toBeGreaterThan(10);
    } finally {
      offered.media.close();
      await listener.stop();
    }
  });

  it('is idle only once the frames taken ahead were sent, and counts no underrun the peer did not hear', async () => {
    const listener = await peer();
    const offered = await media.offer(binding);
    try {
      offered.complete(buildOffer('127.0.0.1', listener.port));
      const queue = new OutputQueue(8000, () => performance.now());
      let underruns = 0;
      queue.onUnderrun(() => underruns++);
      // 300 ms of an answer, its next piece still being synthesised; it comes 200 ms later, while
      // 100 ms of the first is still to be sent: the peer hears no gap, and none is counted.
      queue.await(1);
      queue.enqueue(1, tones(15));
      offered.media.play(queue);
      await sleep(200);
      queue.enqueue(1, tones(15));
      queue.await(-1);
      await queue.whenIdle();
      const idleAt = clock();
      expect(underruns).toBe(0);
      // Then a real gap: a piece awaited and not there for 200 ms is counted, once per silent tick.
      queue.await(1);
      queue.enqueue(2, tones(5));
      await sleep(300);
      expect(underruns).toBeGreaterThanOrEqual(5);
      queue.await(-1);
      offered.media.close();
      const arrivals = await listener.arrivals();
      const lastToneOfFirst = arrivals.filter((a) => a.tone && a.at <= idleAt + 5);
      // Idle came after the 30th frame of the answer reached the peer, not when it was taken.
      expect(lastToneOfFirst.length).toBeGreaterThanOrEqual(29);
    } finally {
      offered.media.close();
      await listener.stop();
    }
  });

  it('runs the media thread above the process’s priority where the system allows it (Linux, root)', async () => {
    const listener = await peer();
    const offered = await media.offer(binding);
    try {
      offered.complete(buildOffer('127.0.0.1', listener.port));
      const nice = readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
      if (process.getuid?.() === 0) expect(nice).toContain(-10);
      else expect(nice.every((n) => n >= 0)).toBe(true);
    } finally {
      offered.media.close();
      await listener.stop();
    }
  });
});
