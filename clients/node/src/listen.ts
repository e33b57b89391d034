/**
 * `vap listen`: follows the tenant's events feed with long polling and POSTs each event to a local
 * URL, signed like a real delivery with a local secret, so webhooks can be received with no public
 * URL. Its state (per API, key and target: the local secret and the last event forwarded, keyed by a
 * hash of the three, never the key itself) is kept under `$XDG_CONFIG_HOME/vap` (else
 * `~/.config/vap`), a folder of mode 0700 holding a file of mode 0600, so a restart resumes where it
 * stopped.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { VoiceAgent } from './client.js';
import type { FeedEvent } from './types.js';
import { generateSecret, sign } from './webhooks.js';

export interface ListenOptions {
  forwardTo: string;
  /** Catalog types or prefix wildcards (`session.*`); default every event. */
  events?: string[];
  /** Start after this event id instead of the saved position (or the tail). */
  after?: string;
  /** Tries per event before moving on (default 4). */
  attempts?: number;
  /** Timeout of one forward, ms (default 15,000, as the platform's deliveries). */
  forwardTimeoutMs?: number;
  /** Seconds each long poll is held (default 25). */
  waitSeconds?: number;
  apiKey: string;
  signal: AbortSignal;
  out: (line: string) => void;
}

interface State {
  /** One local signing secret per API, key and target: a secret handed to one local server signs nothing for another. */
  secrets: Record<string, string>;
  cursors: Record<string, string>;
}

const strings = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(typeof value === 'object' && value !== null ? value : {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );

export function stateDir(): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return join(xdg && xdg.trim() !== '' ? xdg : join(homedir(), '.config'), 'vap');
}

/** The saved state; an older file's one shared `secret` is dropped (each target now gets its own). */
function loadState(file: string): State {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<State>;
    const secrets = Object.fromEntries(
      Object.entries(strings(parsed.secrets)).filter(([, s]) => s.startsWith('whsec_')),
    );
    return { secrets, cursors: strings(parsed.cursors) };
  } catch {
    // No state yet (or unreadable): start afresh.
    return { secrets: {}, cursors: {} };
  }
}

/** The folder is the listener's alone (0700), even one that existed before with looser modes. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Written to a temporary file and renamed over the old one, so a kill never leaves half a file. The
 * file is read again first, so that listeners to other targets keep their positions.
 */
function saveState(file: string, state: State, key: string): void {
  const onDisk = loadState(file);
  const secret = state.secrets[key];
  const cursor = state.cursors[key];
  const merged: State = {
    secrets: { ...onDisk.secrets, ...(secret ? { [key]: secret } : {}) },
    cursors: { ...onDisk.cursors, ...(cursor ? { [key]: cursor } : {}) },
  };
  const tmp = `${file}.${process.pid}.tmp`;
  // 0600 before a byte is written, even if a stale temporary file of looser mode is in the way.
  const fd = openSync(tmp, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${JSON.stringify(merged, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export function matchesFilter(filter: readonly string[] | undefined, type: string): boolean {
  if (!filter || filter.length === 0) return true;
  return filter.some((f) => f === '*' || f === type || (f.endsWith('.*') && type.startsWith(f.slice(0, -1))));
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Runs until `signal` aborts; then finishes the event in hand, saves its position and returns. */
export async function listen(client: VoiceAgent, options: ListenOptions): Promise<void> {
  const dir = stateDir();
  privateDir(dir);
  const file = join(dir, 'listen.json');
  const state = loadState(file);
  // One secret and one cursor per API, tenant key and target: a restart with the same ones resumes.
  const key = createHash('sha256').update(`${client.baseUrl}\n${options.apiKey}\n${options.forwardTo}`).digest('hex');
  const secret = state.secrets[key] ?? generateSecret();
  state.secrets[key] = secret;
  saveState(file, state, key);
  options.out(`Signing secret: ${secret}  (verify the forwarded events with it)`);

  let after: string | null;
  let from: string;
  if (options.after) [after, from] = [options.after, `after ${options.after} (--after)`];
  else if (state.cursors[key]) [after, from] = [state.cursors[key] ?? null, `after ${state.cursors[key]} (resumed)`];
  else {
    after = await client.events.latestId({ signal: options.signal });
    from = after ? `after ${after} (the tail now)` : 'from the start of the feed (it is empty)';
  }
  if (after) {
    state.cursors[key] = after;
    saveState(file, state, key);
  }
  const types = options.events;
  const serverType = types?.length === 1 && !types[0]?.includes('*') ? types[0] : undefined;
  options.out(`Ready: following ${client.baseUrl}/v1/events ${from}, forwarding to ${options.forwardTo}`);

  const feed = client.events.follow({
    after,
    type: serverType,
    waitSeconds: options.waitSeconds,
    signal: options.signal,
    onRetry: (err, delay) =>
      options.out(`! the API did not answer (${err.message}); polling again in ${Math.round(delay / 1000)} s`),
  });
  for await (const event of feed) {
    if (matchesFilter(types, event.type)) await forward(event, secret, options);
    state.cursors[key] = event.id;
    saveState(file, state, key);
    if (options.signal.aborted) break;
  }
}

/** POSTs one event, signed, with retries on network errors and 5xx; prints one line for it. */
async function forward(event: FeedEvent, secret: string, options: ListenOptions): Promise<void> {
  const body = JSON.stringify(event);
  const attempts = Math.max(1, options.attempts ?? 4);
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    let outcome: string;
    let retry: boolean;
    try {
      const response = await fetch(options.forwardTo, {
        method: 'POST',
        headers: sign(body, { id: event.id, type: event.type, secret }),
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.forwardTimeoutMs ?? 15_000),
      });
      await response.body?.cancel().catch(() => undefined);
      outcome = String(response.status);
      retry = response.status >= 500 || response.status === 408 || response.status === 429;
    } catch (err) {
      outcome = `error ${describe(err)}`;
      retry = true;
    }
    const line = `${new Date().toISOString()}  ${event.type.padEnd(36)} ${event.id}  → ${outcome}  ${Date.now() - started} ms`;
    if (!retry) return options.out(line);
    if (attempt >= attempts) return options.out(`${line}  (gave up after ${attempt} attempts; moving on)`);
    const delay = Math.min(8000, 500 * 2 ** (attempt - 1));
    options.out(`${line}  (attempt ${attempt} of ${attempts}; retrying in ${delay} ms)`);
    // A stop during the wait still tries once more, at once, so the event is not left half-done.
    await sleep(delay, options.signal);
  }
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string } }).cause;
  if (cause?.code) return cause.code;
  if (err instanceof Error && err.name === 'TimeoutError') return 'timeout';
  return err instanceof Error ? err.message : String(err);
}
