/**
 * Audio through a real browser in a room, for the suites that check what is said and heard: speech
 * for Chromium's fake microphone (flite, then sox), the room page (its real HTML and room.js) served
 * on loopback with WHIP answered in the test's own process (so the suite holds the agent's peer and
 * its AudioTransport), and what the page hears from the agent captured in the page (WebAudio at
 * 16 kHz) and handed back to the test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EmbeddedRecognizer } from '../../src/conversations/engines/embedded/embedded-recognizer';
import { landingPage, PAGE_ASSETS, PAGE_HEADERS } from '../../src/rooms/api/room-page';

/**
 * A WAV (16-bit mono at `rate`) of flite's slt voice saying `text`, with `leadSeconds` of silence
 * before (the call connects meanwhile) and `trailSeconds` after.
 */
export function speechWav(text: string, rate: number, leadSeconds: number, trailSeconds: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'room-speech-'));
  const raw = join(dir, 'flite.wav');
  const out = join(dir, `speech-${rate}.wav`);
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', raw]);
  execFileSync('sox', [raw, '-r', String(rate), '-c', '1', '-b', '16', '-e', 'signed-integer', out]);
  execFileSync('sox', [out, join(dir, 'padded.wav'), 'pad', String(leadSeconds), String(trailSeconds)]);
  return join(dir, 'padded.wav');
}

export interface RoomPageServer {
  /** The room's page, as a participant's link opens it. */
  url: string;
  /** WHIP DELETEs received (the participant hung up). */
  hangUps: number;
  close(): Promise<void>;
}

/**
 * The room page's routes on loopback (GET the page and its files, POST view, POST WHIP, DELETE WHIP):
 * the page and files are the service's own (src/rooms/api/room-page.ts), the offer goes to `answer`;
 * the live channel stays open and silent.
 */
export async function serveRoomPage(answer: (offerSdp: string) => Promise<string>): Promise<RoomPageServer> {
  const roomId = 'room_audio0123456789';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method === 'GET' && path === `/rooms/${roomId}`) {
          res.writeHead(200, { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' });
          return res.end(landingPage({ clientReferenceId: 'audio-check' }));
        }
        const asset = path.startsWith('/rooms/assets/') ? PAGE_ASSETS[path.slice('/rooms/assets/'.length)] : undefined;
        if (req.method === 'GET' && asset) {
          res.writeHead(200, { 'content-type': asset.type });
          return res.end(asset.body);
        }
        if (req.method === 'POST' && path === `/rooms/${roomId}/view`) return res.writeHead(204).end();
        // The live channel: open, with nothing to tell (the suite's own peer stores no turns).
        if (req.method === 'GET' && path === `/rooms/${roomId}/live`) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return res.write(': live\n\n');
        }
        if (req.method === 'POST' && path === `/rooms/${roomId}/whip`) {
          try {
            const sdp = await answer(Buffer.concat(chunks).toString('utf8'));
            res.writeHead(201, { 'content-type': 'application/sdp', location: `/rooms/${roomId}/whip/p1` });
            return res.end(sdp);
          } catch (err) {
            res.writeHead(400, { 'content-type': 'application/json' });
            return res.end(JSON.stringify({ error: { message: String(err) } }));
          }
        }
        if (req.method === 'DELETE' && path === `/rooms/${roomId}/whip/p1`) {
          handle.hangUps++;
          return res.writeHead(200).end();
        }
        res.writeHead(404).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const handle: RoomPageServer = {
    url: `http://127.0.0.1:${port}/rooms/${roomId}?token=t`,
    hangUps: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the live channel's response stays open otherwise
      }),
  };
  return handle;
}

/**
 * Installed before the page's script runs: every remote track the page's RTCPeerConnection gets is
 * also fed to a 16 kHz AudioContext (Chromium's own resampler) whose samples are kept in the page,
 * for `heardInPage`. The page plays the track in its <audio> element, which Chromium needs for a
 * remote WebRTC track to flow into WebAudio.
 */
export async function captureAgentAudio(page: Page): Promise<void> {
  // Plain script text: it runs in the page (this project compiles without the DOM's types).
  await page.addInitScript({ content: CAPTURE_SCRIPT });
}

const CAPTURE_SCRIPT = `
(() => {
  const kept = [];
  window.__agentAudio = kept;
  const Original = window.RTCPeerConnection;
  class Capturing extends Original {
    constructor(config) {
      super(config);
      this.addEventListener('track', (event) => {
        const context = new AudioContext({ sampleRate: 16000 });
        const source = context.createMediaStreamSource(new MediaStream([event.track]));
        const tap = context.createScriptProcessor(2048, 1, 1);
        tap.onaudioprocess = (e) => {
          for (const v of e.inputBuffer.getChannelData(0)) kept.push(Math.round(v * 32767));
        };
        source.connect(tap);
        tap.connect(context.destination);
        context.resume();
      });
    }
  }
  window.RTCPeerConnection = Capturing;
})();
`;

/** What the page has heard from the agent so far: 16 kHz mono samples. */
export async function heardInPage(page: Page): Promise<Int16Array> {
  const samples = await page.evaluate<number[]>('window.__agentAudio ? [...window.__agentAudio] : []');
  return Int16Array.from(samples);
}

/** The words of 16 kHz speech, by the embedded recogniser (a helper loaded for this one utterance). */
export async function recognise(pcm: Int16Array): Promise<string> {
  const recognizer = new EmbeddedRecognizer('/usr/share/pocketsphinx/model/en-us');
  try {
    const stream = recognizer.start('en-US');
    stream.write(pcm);
    stream.write(new Int16Array(8000));
    return await stream.finish();
  } finally {
    recognizer.close();
  }
}
