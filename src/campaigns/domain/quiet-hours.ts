/**
 * Quiet hours: the local window in which a campaign places no call to a contact (docs/campaigns.md,
 * "Quiet hours and time zones").
 *
 * - The window is `[start, end)` in each zone's local wall-clock time. `start > end` crosses midnight
 *   (the default, 21:00–08:00); `start < end` does not (12:00–13:00); `start === end` means no quiet hours.
 * - A contact has one or more zones (an ambiguous number gets every zone of its prefix, see
 *   contact-zones.ts). The most restrictive rule applies: the contact is quiet at an instant when the
 *   instant is inside the window in ANY of its zones, and callable only when it is outside in all of them.
 *   An empty list of zones means UTC.
 * - Daylight-saving changes follow the wall clock: when the clock jumps forward over the window's end
 *   (the end falls in the gap, e.g. 02:30 on a 02:00→03:00 night), the window ends at the first instant
 *   after the gap; when it falls back over the end (a repeated hour), the window ends at the end's first
 *   occurrence, and the clock reading the window's times again during the repeated hour makes the
 *   contact quiet again until the second occurrence.
 *
 * {@link nextOpenAt} does not scan time: the contact can become callable only at an instant where one of
 * its zones leaves the window, which is either the window's end on the local clock or a daylight-saving
 * jump. It lists those instants over the horizon (a few per zone and day) and returns the first one at
 * which every zone is outside the window. Each zone's UTC offsets over the horizon are found once (a
 * sample a day and a bisection at each change) and kept in a small memo keyed by the zone and the hour,
 * so that a pacing round evaluating thousands of contacts at the same instant computes them once per zone.
 *
 * Pure and synchronous: no I/O, no clock (the instant is an argument). Offsets come from luxon, which
 * reads the runtime's IANA time-zone data (Intl).
 */
import { IANAZone } from 'luxon';

export interface QuietHours {
  /** HH:MM, 24-hour, local time: the window opens. */
  readonly start: string;
  /** HH:MM, 24-hour, local time: the window closes (exclusive). */
  readonly end: string;
}

/** How far ahead {@link nextOpenAt} looks before giving up (returning null). */
export const NEXT_OPEN_HORIZON_MS = 8 * 24 * 60 * 60 * 1000;

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const LOCAL_TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const FALLBACK_ZONES: readonly string[] = ['UTC'];

/** Minutes since local midnight for a strict "HH:MM" (00:00–23:59), else null. */
export function parseLocalTime(text: string): number | null {
  const match = LOCAL_TIME.exec(text);
  if (!match) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** True when `at` falls inside the quiet window in at least one of the zones (empty list: UTC). */
export function isQuietAt(zones: readonly string[], quiet: QuietHours, at: Date): boolean {
  return quietInZones(windowOf(quiet), zoneList(zones), instantOf(at));
}

/**
 * The earliest instant ≥ `at` at which the contact is outside the quiet window in every zone: `at`
 * itself when it is callable now, null when no such instant comes within {@link NEXT_OPEN_HORIZON_MS}
 * (the zones' windows together cover the whole day).
 */
export function nextOpenAt(zones: readonly string[], quiet: QuietHours, at: Date): Date | null {
  const window = windowOf(quiet);
  const t0 = instantOf(at);
  const offsets = zoneList(zones).map((name) => offsetSegments(name, t0));
  const quietAt = (t: number) => offsets.some((segments) => insideWindow(window, t + offsetAt(segments, t)));
  if (!quietAt(t0)) return at;

  const horizon = t0 + NEXT_OPEN_HORIZON_MS;
  const candidates: number[] = [];
  for (const segments of offsets) {
    segments.forEach((segment, i) => {
      const until = Math.min(segments[i + 1]?.from ?? Infinity, horizon + 1);
      // A daylight-saving jump: the clock may leave the window (a forward jump over its end, or a
      // backward jump to a time outside it).
      if (segment.from > t0 && segment.from < until) candidates.push(segment.from);
      // The local clock reaching the window's end, once a day while this offset holds.
      const first = window.end - segment.offsetMs;
      const from = Math.max(segment.from, t0);
      for (let t = first + Math.ceil((from - first) / DAY_MS) * DAY_MS; t < until; t += DAY_MS) candidates.push(t);
    });
  }
  candidates.sort((a, b) => a - b);
  for (const t of candidates) if (!quietAt(t)) return new Date(t);
  return null;
}

/** The window as milliseconds since local midnight. */
interface Window {
  readonly start: number;
  readonly end: number;
}

function windowOf(quiet: QuietHours): Window {
  const start = parseLocalTime(quiet.start);
  const end = parseLocalTime(quiet.end);
  if (start === null || end === null) {
    throw new RangeError(`quiet hours must be HH:MM (00:00–23:59), got ${JSON.stringify(quiet)}`);
  }
  return { start: start * MINUTE_MS, end: end * MINUTE_MS };
}

function quietInZones(window: Window, names: readonly string[], t: number): boolean {
  const zones = names.map(zoneOf);
  return zones.some((zone) => insideWindow(window, t + zone.offset(t) * MINUTE_MS));
}

/** Whether a local wall-clock time (milliseconds, any day) lies in the window. */
function insideWindow(window: Window, localMs: number): boolean {
  const ofDay = ((localMs % DAY_MS) + DAY_MS) % DAY_MS;
  if (window.start === window.end) return false;
  if (window.start < window.end) return ofDay >= window.start && ofDay < window.end;
  return ofDay >= window.start || ofDay < window.end;
}

function instantOf(at: Date): number {
  const t = at.getTime();
  if (Number.isNaN(t)) throw new RangeError('invalid date');
  return t;
}

function zoneList(zones: readonly string[]): readonly string[] {
  return zones.length === 0 ? FALLBACK_ZONES : zones;
}

function zoneOf(name: string): IANAZone {
  const zone = IANAZone.create(name);
  if (!zone.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(name)}`);
  return zone;
}

/** From `from` on (until the next segment), the zone's local time is the instant plus `offsetMs`. */
interface OffsetSegment {
  readonly from: number;
  readonly offsetMs: number;
}

const SEGMENT_MEMO_LIMIT = 4096;
const segmentMemo = new Map<string, readonly OffsetSegment[]>();

/**
 * The zone's offsets from the start of `t`'s hour over the horizon (plus that hour), in order. Sampled
 * once a day, each change bisected to the millisecond; a zone changing and changing back within one day
 * would be missed, and none does. Memoised: the result depends only on the zone and the hour.
 */
function offsetSegments(name: string, t: number): readonly OffsetSegment[] {
  const zone = zoneOf(name);
  const from = Math.floor(t / HOUR_MS) * HOUR_MS;
  const key = `${name} ${from}`;
  const known = segmentMemo.get(key);
  if (known) return known;

  const offsetMs = (at: number) => zone.offset(at) * MINUTE_MS;
  const to = from + NEXT_OPEN_HORIZON_MS + HOUR_MS;
  let last = { at: from, offsetMs: offsetMs(from) };
  const segments: OffsetSegment[] = [{ from, offsetMs: last.offsetMs }];
  for (let probe = from + DAY_MS; last.at < to; probe += DAY_MS) {
    const at = Math.min(probe, to);
    const offset = offsetMs(at);
    while (offset !== last.offsetMs) {
      let before = last.at;
      let after = at;
      while (after - before > 1) {
        const mid = Math.floor((before + after) / 2);
        if (offsetMs(mid) === last.offsetMs) before = mid;
        else after = mid;
      }
      last = { at: after, offsetMs: offsetMs(after) };
      segments.push({ from: last.at, offsetMs: last.offsetMs });
    }
    last = { at, offsetMs: offset };
  }

  if (segmentMemo.size >= SEGMENT_MEMO_LIMIT) segmentMemo.clear();
  segmentMemo.set(key, segments);
  return segments;
}

function offsetAt(segments: readonly OffsetSegment[], t: number): number {
  let offset = segments[0]?.offsetMs ?? 0;
  for (const segment of segments) {
    if (segment.from > t) break;
    offset = segment.offsetMs;
  }
  return offset;
}
