import { spawn } from 'node:child_process';
import { freePort } from '../src/infra/database/embedded-postgres';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sleep, stopChild } from './child-process';

/**
 * The real service as `node dist/main.js` in a child process of its own, on the benchmark's
 * database, as an operator would run it: so that its resident set, its event loop and its
 * PostgreSQL connections are its own, apart from the load generator's and the receiver's.
 */
export interface ServiceProcess {
  readonly pid: number;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly tenantId: string;
  /** The dist/main.js it runs. */
  readonly entry: string;
  /** Its DATA_DIR, a temporary directory removed by stop(). */
  readonly dataDir: string;
  /** Lines the service wrote (stdout and stderr) and the last few of them. */
  readonly output: { lines: number; last: string[] };
  /** SIGTERM, SIGKILL after 15 s; removes its data directory. */
  stop(): Promise<{ forced: boolean }>;
}

export const ADMIN_TOKEN = 'bench-admin';
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;
const KEPT_LINES = 20;

export async function startServiceProcess(
  databaseUrl: string,
  env: Record<string, string>,
  /** Another build's dist/main.js; else BENCH_SERVICE_ENTRY, else this build's. */
  entryPath?: string,
): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-svc-'));
  const port = await freePort();
  const entry = serviceEntry(entryPath);
  // Node flags for the service alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it under the load.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const engines = await offBoxEngines();
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: {
      ...process.env,
      ...engines,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_TOKEN,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Should this process end without stopping it (an error, Ctrl-C), the service ends with it.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const output = { lines: 0, last: [] as string[] };
  const collect = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      output.lines++;
      output.last.push(line.slice(0, 500));
      if (output.last.length > KEPT_LINES) output.last.shift();
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const stop = async (): Promise<{ forced: boolean }> => {
    const result = await stopChild(child, STOP_GRACE_MS);
    process.off('exit', killOnExit);
    rmSync(dataDir, { recursive: true, force: true });
    return result;
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, () => child.exitCode !== null || child.signalCode !== null);
    const tenant = await postJson<{ tenant_id: string; api_key: string }>(`${baseUrl}/admin/v1/tenants`, ADMIN_TOKEN, {
      name: 'bench',
      email: 'bench@example.com',
    });
    return {
      pid: child.pid ?? 0,
      baseUrl,
      apiKey: tenant.api_key,
      tenantId: tenant.tenant_id,
      entry,
      dataDir,
      output,
      stop,
    };
  } catch (err) {
    await stop();
    const tail = output.last.join('\n');
    throw new Error(`${err instanceof Error ? err.message : String(err)}${tail ? `\nservice output:\n${tail}` : ''}`);
  }
}

/**
 * The service a benchmark runs: `entryPath`, else BENCH_SERVICE_ENTRY (another build's
 * dist/main.js, to measure an older commit with this benchmark), else this build's dist/main.js.
 */
export function serviceEntry(entryPath?: string): string {
  return resolve(entryPath || process.env.BENCH_SERVICE_ENTRY || resolve(__dirname, '..', '..', 'main.js'));
}

/**
 * Deletes the recordings a build before the blob store wrote under DATA_DIR/recordings (a WAV of
 * the call's length: 1.4 MB for a completed test call; BENCH_SERVICE_ENTRY runs such builds), so
 * that a long ladder does not fill the disk; answers how many files and megabytes there were. The
 * blob store keeps a simulated recording as one row without bytes
 * (docs/decisions/0066-the-simulators-recordings-are-copies-of-one-synthesised-file.md): nothing to
 * do.
 */
export function removeRecordings(dataDir: string): { files: number; mb: number } {
  const dir = join(dataDir, 'recordings');
  let files = 0;
  let bytes = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { files: 0, mb: 0 };
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      bytes += statSync(path).size;
      rmSync(path, { force: true });
      files++;
    } catch {
      // written or removed meanwhile: counted next time, or never
    }
  }
  return { files, mb: Math.round(bytes / 2 ** 20) };
}

/** POSTs JSON with a bearer token; throws unless the answer is 2xx. */
export async function postJson<T>(url: string, token: string, body: object): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function waitForHealth(baseUrl: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the service process exited during start-up');
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the service did not answer /health within ${HEALTH_TIMEOUT_MS / 1000} s`);
}

let standIn: Promise<Record<string, string>> | null = null;

/**
 * BENCH_ENGINES=stand-in: the service's engines are hosted ones, played by the stand-in of
 * bench/engines-stand-in.ts in its own process (started once per benchmark run, stopped with it):
 * STT_URL, TTS_URL and LLM_URL point at it, with the providers BENCH_STT (openai: one request per
 * utterance; deepgram: streaming) and BENCH_TTS (openai: a streamed body; elevenlabs: streaming
 * input). Otherwise the embedded engines (no variables).
 */
function offBoxEngines(): Promise<Record<string, string>> {
  if (process.env.BENCH_ENGINES !== 'stand-in') return Promise.resolve({});
  standIn ??= new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'engines-stand-in.js')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    process.on('exit', () => void child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url)
        resolve({
          STT_URL: url,
          TTS_URL: url,
          LLM_URL: url,
          // BENCH_STT=deepgram / BENCH_TTS=elevenlabs: the streaming providers' protocols (the same stand-in).
          STT_PROVIDER: process.env.BENCH_STT ?? 'openai',
          TTS_PROVIDER: process.env.BENCH_TTS ?? 'openai',
          LLM_MODEL: 'stand-in',
          STT_API_KEY: 'k',
          TTS_API_KEY: 'k',
          LLM_API_KEY: 'k',
        });
    });
    child.once('exit', (code) => reject(new Error(`the engines' stand-in exited (${String(code)})`)));
  });
  return standIn;
}
