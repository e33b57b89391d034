/**
 * baresip (Debian's `baresip-core`) as a real phone on loopback: it answers every call at once
 * (`answermode=auto`), speaks a WAV file as its microphone (the `aufile` source), and records both
 * directions of each call with the `sndfile` filter: `dump-*-dec.wav` holds what it heard.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpPort } from './sipp';

export interface Baresip {
  port: number;
  dir: string;
  /** The WAV files of what the phone heard (one per call). */
  heardFiles(): string[];
  output(): string;
  stop(): Promise<void>;
}

/**
 * The RTP_ALLOWED_SOURCES a service needs for baresip's media: baresip 1.0 names this machine's first
 * external IPv4 address in its SDP (its socket answers there too: the address is local), and cannot
 * be told to name 127.0.0.1 (`net_interface lo` fails to start it).
 */
export function baresipMediaSources(): string {
  const external = Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => i!.address);
  return ['127.0.0.1', ...external].join(', ');
}

/**
 * Starts baresip on 127.0.0.1 speaking `voiceWav` (8 kHz mono 16-bit) into every call; on `port`
 * when given (a trunk address fixed in a service's settings), as `user` (default `phone`).
 */
export async function startBaresip(voiceWav: string, opts: { port?: number; user?: string } = {}): Promise<Baresip> {
  const dir = mkdtempSync(join(tmpdir(), 'baresip-'));
  const port = opts.port ?? (await freeUdpPort());
  const rtp = await freeUdpPort(true);
  writeFileSync(
    join(dir, 'config'),
    [
      'poll_method epoll',
      `sip_listen 127.0.0.1:${port}`,
      `audio_source aufile,${voiceWav}`,
      `audio_alert aufile,${voiceWav}`,
      'module_path /usr/lib/baresip/modules',
      'module g711.so',
      'module aufile.so',
      'module sndfile.so',
      'module_tmp account.so',
      'module_app menu.so',
      `snd_path ${dir}`,
      `rtp_ports ${rtp}-${rtp + 1}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'accounts'), `<sip:${opts.user ?? 'phone'}@127.0.0.1>;regint=0;answermode=auto\n`);
  const child = spawn('baresip', ['-f', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  while (!output.includes('baresip is ready') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (!output.includes('baresip is ready')) throw new Error(`baresip did not start:\n${output}`);
  return {
    port,
    dir,
    heardFiles: () =>
      readdirSync(dir)
        .filter((f) => f.endsWith('-dec.wav'))
        .map((f) => join(dir, f)),
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
