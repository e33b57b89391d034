import { Pool } from 'undici';
import { percentiles, Percentiles, round2 } from './percentiles';
import { nowMs } from './support';

/**
 * Open-loop load: requests fired on a fixed schedule (`rate` per second), each without waiting
 * for the ones before it, so that a slow service meets the same arrivals as a fast one and its
 * queueing shows in the latency. Latency is taken from the scheduled moment, not the moment the
 * request left, so that a late generator cannot hide the service's delay (coordinated omission).
 */
export interface OpenLoopOptions {
  readonly dispatcher: Pool;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly rate: number;
  readonly durationMs: number;
  /** Bound on each request, from the moment it is fired; a request over it counts as an error. */
  readonly timeoutMs: number;
}

export interface OpenLoopResult {
  readonly placed: number;
  readonly ok: number;
  readonly non_2xx: number;
  readonly errors: number;
  /** Requests placed per second of the schedule actually taken. */
  readonly placed_per_s: number;
  readonly latency_ms: Percentiles;
  /** The most the generator fired behind its schedule (its own event loop was busy). */
  readonly generator_late_max_ms: number;
  /** First few answers that were not 2xx, and errors. */
  readonly failures: string[];
}

export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const total = Math.round((options.rate * options.durationMs) / 1000);
  const latencies: number[] = [];
  const failures: string[] = [];
  const counts = { ok: 0, non2xx: 0, errors: 0 };
  const inFlight: Promise<void>[] = [];
  let lateMax = 0;
  const started = nowMs();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / options.rate;
    const wait = due - nowMs();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    lateMax = Math.max(lateMax, nowMs() - due);
    inFlight.push(placeOne(options, due, latencies, counts, failures));
  }
  // The schedule's span: up to the last request, and the interval that request stands for.
  const scheduleMs = nowMs() - started + 1000 / options.rate;
  await Promise.all(inFlight);
  return {
    placed: total,
    ok: counts.ok,
    non_2xx: counts.non2xx,
    errors: counts.errors,
    placed_per_s: scheduleMs > 0 ? round2((total * 1000) / scheduleMs) : 0,
    latency_ms: percentiles(latencies),
    generator_late_max_ms: round2(lateMax),
    failures,
  };
}

async function placeOne(
  options: OpenLoopOptions,
  due: number,
  latencies: number[],
  counts: { ok: number; non2xx: number; errors: number },
  failures: string[],
): Promise<void> {
  const note = (line: string): void => void (failures.length < 5 && failures.push(line));
  try {
    const response = await options.dispatcher.request({
      method: 'POST',
      path: options.path,
      headers: options.headers,
      body: options.body,
      // From the moment it is fired, queueing for a connection included.
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.body.text();
    latencies.push(nowMs() - due);
    if (response.statusCode >= 200 && response.statusCode < 300) counts.ok++;
    else {
      counts.non2xx++;
      note(`${response.statusCode} ${text.slice(0, 200)}`);
    }
  } catch (err) {
    counts.errors++;
    note(err instanceof Error ? err.message : String(err));
  }
}
