/**
 * Percentiles of a list of latencies. Its own module, free of the service's code, so that the
 * receiver process (receiver.ts) can use it without loading the application.
 */
export interface Percentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => round2(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: round2(sorted[sorted.length - 1] ?? 0) };
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
