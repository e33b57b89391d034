const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses "500ms", "5s", "2m", "1h", "7d" (or a bare number of milliseconds) into milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  const unit = match[2] ?? 'ms';
  const factor = UNITS[unit];
  if (factor === undefined || !Number.isFinite(value)) return null;
  return Math.round(value * factor);
}
