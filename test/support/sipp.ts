/**
 * SIPp (Debian's `sip-tester`) as a real SIP peer on loopback: a trunk that answers, rings, refuses or
 * challenges (the `uas-*.xml` scenarios), or a caller (`uac-*.xml`). One run places or takes one
 * call (`-m 1`, or `calls` at `rate` per second) and exits 0 when every call went through the
 * scenario, 1 when one did not; its error log says why.
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export const SIPP_SCENARIOS = resolve(__dirname, 'sipp');

/** A UDP port free on 127.0.0.1 now (even, with the next one free too when `pair`). */
export async function freeUdpPort(pair = false): Promise<number> {
  for (;;) {
    const socket = createSocket('udp4');
    const port = await new Promise<number>((done) => socket.bind(0, '127.0.0.1', () => done(socket.address().port)));
    await new Promise<void>((done) => socket.close(() => done()));
    if (!pair) return port;
    if (port % 2 !== 0 || port > 65_000) continue;
    const next = createSocket('udp4');
    const ok = await new Promise<boolean>((done) => {
      next.once('error', () => done(false));
      next.bind(port + 1, '127.0.0.1', () => done(true));
    });
    if (ok) await new Promise<void>((done) => next.close(() => done()));
    if (ok) return port;
  }
}

export interface SippRun {
  /** SIPp's SIP port. */
  port: number;
  /** Resolves when SIPp exits: its code and error log. */
  done: Promise<{ code: number | null; errors: string; output: string }>;
  kill(): void;
}

export interface SippOptions {
  /** A file of test/support/sipp, or an absolute path (a scenario a test wrote from a template). */
  scenario: string;
  /** As a caller: where to send (our user agent). */
  target?: string;
  /** `[service]`: the user part a caller dials. */
  service?: string;
  transport?: 'udp' | 'tcp';
  /** Echo the RTP it receives (`-rtp_echo`). */
  rtpEcho?: boolean;
  timeoutSeconds?: number;
  /** Calls to place or take (`-m`, default 1), and new calls per second (`-r`, default 10). */
  calls?: number;
  rate?: number;
  /** SIPp's own SIP port (default: a free one), e.g. a trunk address fixed in a service's settings. */
  port?: number;
}

export async function startSipp(options: SippOptions): Promise<SippRun> {
  const port = options.port ?? (await freeUdpPort());
  const mediaPort = await freeUdpPort(true);
  const dir = mkdtempSync(join(tmpdir(), 'sipp-'));
  const args = [
    ...(options.target ? [options.target] : []),
    '-sf',
    isAbsolute(options.scenario) ? options.scenario : join(SIPP_SCENARIOS, options.scenario),
    '-i',
    '127.0.0.1',
    '-p',
    String(port),
    '-mi',
    '127.0.0.1',
    '-mp',
    String(mediaPort),
    '-m',
    String(options.calls ?? 1),
    '-r',
    String(options.rate ?? 10),
    '-t',
    options.transport === 'tcp' ? 't1' : 'u1',
    '-nostdin',
    '-timeout',
    `${options.timeoutSeconds ?? 60}s`,
    '-timeout_error',
    '-trace_err',
    '-error_file',
    join(dir, 'errors.log'),
    ...(options.service ? ['-s', options.service] : []),
    ...(options.rtpEcho ? ['-rtp_echo'] : []),
  ];
  const child = spawn('sipp', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const done = new Promise<{ code: number | null; errors: string; output: string }>((resolveDone) => {
    child.on('exit', (code) => {
      const logs = readdirSync(dir).filter((f) => f.endsWith('.log'));
      const errors = logs.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
      resolveDone({
        code,
        errors,
        output: output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g'), ''),
      });
    });
  });
  // Give SIPp a moment to bind before the first INVITE goes to it.
  await new Promise((r) => setTimeout(r, 300));
  return { port, done, kill: () => child.kill('SIGTERM') };
}
