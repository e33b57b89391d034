import { parseDuration } from '../kernel/duration';

export type Env = Record<string, string | undefined>;

/**
 * Typed reads of environment variables that collect problems instead of throwing, so that one
 * ConfigError names every bad variable. The platform's settings (config.ts) and every context's
 * section (`<context>.config.ts`) read through it, with the same rules and messages.
 */
export interface EnvReader {
  /** Trimmed value; empty or whitespace-only counts as unset (null). */
  readonly str: (name: string) => string | null;
  readonly int: (name: string, def: number, min: number, max: number) => number;
  readonly duration: (name: string, def: string) => number;
  /** A duration between min and max ms; `range` says it in words ("1s to 7d"). */
  readonly durationWithin: (name: string, def: string, min: number, max: number, range: string) => number;
  readonly bool: (name: string) => boolean;
  readonly url: (name: string, protocols: string[]) => string | null;
  /** Records a problem of a rule the helpers above do not cover. */
  readonly problem: (message: string) => void;
}

export function envReader(env: Env, problems: string[]): EnvReader {
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const duration = (name: string, def: string): number => {
    const v = str(name) ?? def;
    const ms = parseDuration(v);
    if (ms === null) {
      problems.push(`${name} must be a duration such as 500ms, 30s, 2m, 1h or 7d (got "${v}")`);
      return parseDuration(def) ?? 0;
    }
    return ms;
  };
  return {
    str,
    int(name, def, min, max) {
      const v = str(name);
      if (v === null) return def;
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
        problems.push(`${name} must be an integer between ${min} and ${max} (got "${v}")`);
        return def;
      }
      return Number(v);
    },
    duration,
    durationWithin(name, def, min, max, range) {
      const ms = duration(name, def);
      if (ms >= min && ms <= max) return ms;
      problems.push(`${name} must be a duration from ${range} (got "${str(name) ?? ''}")`);
      return parseDuration(def) ?? 0;
    },
    bool(name) {
      const v = str(name);
      if (v === null) return false;
      if (['true', '1', 'yes'].includes(v.toLowerCase())) return true;
      if (['false', '0', 'no'].includes(v.toLowerCase())) return false;
      problems.push(`${name} must be true or false (got "${v}")`);
      return false;
    },
    url(name, protocols) {
      const v = str(name);
      if (v === null) return null;
      try {
        const parsed = new URL(v);
        if (!protocols.includes(parsed.protocol)) {
          problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
          return null;
        }
        return v.replace(/\/+$/, '');
      } catch {
        problems.push(`${name} must be a URL (got "${v}")`);
        return null;
      }
    },
    problem(message) {
      problems.push(message);
    },
  };
}
