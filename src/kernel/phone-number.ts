import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Texts already normalised, and their answer (null: not a valid number). Parsing with the full
 * metadata is a visible share of a `POST /v1/calls` (see docs/benchmarks.md), twice per call; a
 * tenant's `from` numbers, a campaign's redials and a retried request repeat the same texts.
 * The answer depends on the text alone, so a remembered one is the same answer. Bounded: texts of at
 * most 40 characters (a number written with spaces fits), and the oldest half goes when it is full.
 */
const remembered = new Map<string, string | null>();
const REMEMBERED_MAX = 4096;
const REMEMBERED_TEXT_MAX = 40;

/** E.164 form of a valid number written in international format (leading +), else null. */
export function normalisePhoneNumber(input: string): string | null {
  const known = remembered.get(input);
  if (known !== undefined) return known;
  const normalised = parse(input);
  if (input.length > REMEMBERED_TEXT_MAX) return normalised;
  if (remembered.size >= REMEMBERED_MAX) {
    let drop = REMEMBERED_MAX / 2;
    for (const oldest of remembered.keys()) {
      if (drop-- <= 0) break;
      remembered.delete(oldest);
    }
  }
  remembered.set(input, normalised);
  return normalised;
}

function parse(input: string): string | null {
  const text = input.trim();
  if (!/^\+[0-9 ()\-.]{6,24}$/.test(text)) return null;
  const parsed = parsePhoneNumberFromString(text);
  return parsed && parsed.isValid() ? parsed.number : null;
}
