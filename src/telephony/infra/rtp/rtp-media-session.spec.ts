import { Worker } from 'node:worker_threads';
import type { FrameSource } from '../../../conversations/index';
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
      let speaking = true;
      let onFlush: () => void = () => undefined;
      const source: FrameSource = {
        nextFrame: () => (speaking ? tone() : null),
        onFlush: (listener) => (onFlush = listener),
      };
      offered.media.play(source);
      await sleep(400);
      speaking = false;
      const flushedAt = clock();
      onFlush();
      await sleep(400);
      offered.media.close();
      const arrivals = await listener.arrivals();
      const toneAfter = arrivals.filter((a) => a.tone && a.at > flushedAt);
      // Without the flush, 200 ms of tone (10 frames) was queued ahead and would still be heard.
      expect(toneAfter.length).toBeLessThanOrEqual(2);
      expect(arrivals.filter((a) => a.tone && a.at < flushedAt).length).toBeGreaterThan(10);
    } finally {
      offered.media.close();
      await listener.stop();
    }
  });
});
