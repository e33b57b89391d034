import { isQuietAt, nextOpenAt, parseLocalTime, QuietHours } from './quiet-hours';

/*
 * Every expected instant below is worked out by hand from the zone's offset on that date:
 * America/New_York is UTC-5 (EST) and UTC-4 (EDT, 2026-03-08 02:00 EST → 03:00 EDT, i.e. 07:00Z, until
 * 2026-11-01 02:00 EDT → 01:00 EST, i.e. 06:00Z); America/Los_Angeles is UTC-7 in June; Europe/Paris is
 * UTC+2 in June; Australia/Lord_Howe is UTC+10:30 (standard) and UTC+11 (summer, 2026-10-04 02:00 → 02:30,
 * i.e. 2026-10-03T15:30Z, until 2026-04-05 02:00 → 01:30, i.e. 2026-04-04T15:00Z).
 */

const DEFAULT: QuietHours = { start: '21:00', end: '08:00' };
const NY = ['America/New_York'];
const LA = ['America/Los_Angeles'];
const LORD_HOWE = ['Australia/Lord_Howe'];
const at = (iso: string) => new Date(iso);
const openAt = (zones: readonly string[], quiet: QuietHours, iso: string) =>
  nextOpenAt(zones, quiet, at(iso))?.toISOString() ?? null;

describe('parseLocalTime', () => {
  it.each([
    ['00:00', 0],
    ['08:00', 480],
    ['12:30', 750],
    ['21:00', 1260],
    ['23:59', 1439],
  ])('%s is minute %i of the day', (text, minutes) => {
    expect(parseLocalTime(text)).toBe(minutes);
  });

  it.each(['24:00', '23:60', '8:00', '08:0', '0800', '08:00:00', ' 08:00', '08:00 ', '', '-1:00', '08h00', 'ab:cd'])(
    'rejects %j',
    (text) => {
      expect(parseLocalTime(text)).toBeNull();
    },
  );
});

describe('isQuietAt', () => {
  describe('default window 21:00–08:00 in America/New_York (EDT, UTC-4, on 2026-06-15)', () => {
    it.each([
      ['20:59', '2026-06-16T00:59:00.000Z', false],
      ['21:00', '2026-06-16T01:00:00.000Z', true],
      ['00:00', '2026-06-16T04:00:00.000Z', true],
      ['07:59', '2026-06-16T11:59:00.000Z', true],
      ['07:59:59.999', '2026-06-16T11:59:59.999Z', true],
      ['08:00', '2026-06-16T12:00:00.000Z', false],
      ['12:00', '2026-06-16T16:00:00.000Z', false],
    ])('at %s local (%s): quiet = %s', (_local, iso, quiet) => {
      expect(isQuietAt(NY, DEFAULT, at(iso))).toBe(quiet);
    });

    it('in winter (EST, UTC-5) the same local hours are an hour later in UTC', () => {
      expect(isQuietAt(NY, DEFAULT, at('2026-01-15T12:59:00.000Z'))).toBe(true); // 07:59 EST
      expect(isQuietAt(NY, DEFAULT, at('2026-01-15T13:00:00.000Z'))).toBe(false); // 08:00 EST
      expect(isQuietAt(NY, DEFAULT, at('2026-01-16T01:59:00.000Z'))).toBe(false); // 20:59 EST
      expect(isQuietAt(NY, DEFAULT, at('2026-01-16T02:00:00.000Z'))).toBe(true); // 21:00 EST
    });
  });

  it('a window that does not cross midnight (12:00–13:00, Europe/Paris, UTC+2)', () => {
    const lunch = { start: '12:00', end: '13:00' };
    expect(isQuietAt(['Europe/Paris'], lunch, at('2026-06-15T09:59:00.000Z'))).toBe(false); // 11:59
    expect(isQuietAt(['Europe/Paris'], lunch, at('2026-06-15T10:00:00.000Z'))).toBe(true); // 12:00
    expect(isQuietAt(['Europe/Paris'], lunch, at('2026-06-15T10:59:00.000Z'))).toBe(true); // 12:59
    expect(isQuietAt(['Europe/Paris'], lunch, at('2026-06-15T11:00:00.000Z'))).toBe(false); // 13:00
    expect(isQuietAt(['Europe/Paris'], lunch, at('2026-06-14T22:30:00.000Z'))).toBe(false); // 00:30
    expect(openAt(['Europe/Paris'], lunch, '2026-06-15T10:30:00.000Z')).toBe('2026-06-15T11:00:00.000Z');
  });

  it('start equal to end means no quiet hours', () => {
    const none = { start: '09:00', end: '09:00' };
    for (const iso of ['2026-06-15T13:00:00.000Z', '2026-06-15T04:00:00.000Z', '2026-06-15T01:00:00.000Z']) {
      expect(isQuietAt(NY, none, at(iso))).toBe(false);
      const instant = at(iso);
      expect(nextOpenAt(NY, none, instant)).toBe(instant);
    }
  });

  it('an empty list of zones means UTC', () => {
    expect(isQuietAt([], DEFAULT, at('2026-06-15T20:59:00.000Z'))).toBe(false);
    expect(isQuietAt([], DEFAULT, at('2026-06-15T21:00:00.000Z'))).toBe(true);
    expect(openAt([], DEFAULT, '2026-06-15T23:00:00.000Z')).toBe('2026-06-16T08:00:00.000Z');
  });

  it('rejects malformed quiet hours, unknown zones and invalid dates', () => {
    expect(() => isQuietAt(NY, { start: '9:00', end: '08:00' }, at('2026-06-15T12:00:00Z'))).toThrow(RangeError);
    expect(() => nextOpenAt(NY, { start: '21:00', end: '24:00' }, at('2026-06-15T12:00:00Z'))).toThrow(RangeError);
    expect(() => isQuietAt(['Mars/Olympus_Mons'], DEFAULT, at('2026-06-15T12:00:00Z'))).toThrow(RangeError);
    expect(() => nextOpenAt([...NY, 'Mars/Olympus_Mons'], DEFAULT, at('2026-06-15T03:00:00Z'))).toThrow(RangeError);
    expect(() => isQuietAt(NY, DEFAULT, new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('nextOpenAt', () => {
  it('returns `at` itself when the contact is callable now', () => {
    const now = at('2026-06-15T16:00:00.000Z'); // 12:00 EDT
    expect(nextOpenAt(NY, DEFAULT, now)).toBe(now);
  });

  it('the end of the window, in local time, on the same night or the next morning', () => {
    expect(openAt(NY, DEFAULT, '2026-06-16T01:00:00.000Z')).toBe('2026-06-16T12:00:00.000Z'); // 21:00 → 08:00 EDT
    expect(openAt(NY, DEFAULT, '2026-06-16T04:00:00.000Z')).toBe('2026-06-16T12:00:00.000Z'); // 00:00 → 08:00 EDT
    expect(openAt(NY, DEFAULT, '2026-06-16T11:59:59.999Z')).toBe('2026-06-16T12:00:00.000Z');
    expect(openAt(LA, DEFAULT, '2026-06-16T04:00:00.000Z')).toBe('2026-06-16T15:00:00.000Z'); // 21:00 → 08:00 PDT
  });

  it('null when the zones’ windows together cover the whole day', () => {
    // UTC is quiet 18:00–09:00Z; Tokyo (UTC+9, no daylight saving) is quiet 09:00–00:00Z: no instant is free.
    const long = { start: '18:00', end: '09:00' };
    expect(openAt(['UTC', 'Asia/Tokyo'], long, '2026-06-15T12:00:00.000Z')).toBeNull();
    expect(isQuietAt(['UTC', 'Asia/Tokyo'], long, at('2026-06-15T08:59:59.999Z'))).toBe(true); // 17:59 Tokyo
    expect(isQuietAt(['UTC', 'Asia/Tokyo'], long, at('2026-06-15T09:00:00.000Z'))).toBe(true); // 09:00 UTC
    // One free minute a day is still an opening.
    expect(openAt(['UTC'], { start: '00:00', end: '23:59' }, '2026-06-15T00:00:00.000Z')).toBe(
      '2026-06-15T23:59:00.000Z',
    );
  });
});

describe('several zones: the most restrictive window applies', () => {
  // 2026-06-15: New York is UTC-4, Los Angeles UTC-7. Callable when both read 08:00–21:00, i.e. from
  // 08:00 in Los Angeles (11:00 in New York, 15:00Z) to 21:00 in New York (18:00 in Los Angeles, 01:00Z).
  const BOTH = ['America/New_York', 'America/Los_Angeles'];

  it.each([
    ['2026-06-15T14:59:00.000Z', true], // 10:59 NY, 07:59 LA
    ['2026-06-15T15:00:00.000Z', false], // 11:00 NY, 08:00 LA
    ['2026-06-16T00:59:00.000Z', false], // 20:59 NY, 17:59 LA
    ['2026-06-16T01:00:00.000Z', true], // 21:00 NY, 18:00 LA
  ])('at %s: quiet = %s', (iso, quiet) => {
    expect(isQuietAt(BOTH, DEFAULT, at(iso))).toBe(quiet);
    expect(isQuietAt([...BOTH].reverse(), DEFAULT, at(iso))).toBe(quiet);
  });

  it('each zone alone would allow a call the pair does not', () => {
    expect(isQuietAt(NY, DEFAULT, at('2026-06-15T14:59:00.000Z'))).toBe(false);
    expect(isQuietAt(LA, DEFAULT, at('2026-06-16T01:00:00.000Z'))).toBe(false);
  });

  it('opens when the last zone leaves its window', () => {
    expect(openAt(BOTH, DEFAULT, '2026-06-15T13:00:00.000Z')).toBe('2026-06-15T15:00:00.000Z'); // 09:00 NY
    expect(openAt(BOTH, DEFAULT, '2026-06-16T01:00:00.000Z')).toBe('2026-06-16T15:00:00.000Z'); // 21:00 NY
    expect(openAt(BOTH, DEFAULT, '2026-06-16T06:00:00.000Z')).toBe('2026-06-16T15:00:00.000Z'); // 02:00 NY
    const open = at('2026-06-15T20:00:00.000Z');
    expect(nextOpenAt(BOTH, DEFAULT, open)).toBe(open);
  });
});

describe('America/New_York, spring forward (2026-03-08, 02:00 EST → 03:00 EDT at 07:00Z)', () => {
  it('default window: 08:00 is 13:00Z on the Saturday (EST) and 12:00Z on the Sunday (EDT)', () => {
    expect(openAt(NY, DEFAULT, '2026-03-07T05:00:00.000Z')).toBe('2026-03-07T13:00:00.000Z'); // from 00:00 EST
    expect(openAt(NY, DEFAULT, '2026-03-08T02:00:00.000Z')).toBe('2026-03-08T12:00:00.000Z'); // from 21:00 EST
    expect(isQuietAt(NY, DEFAULT, at('2026-03-08T11:59:00.000Z'))).toBe(true); // 07:59 EDT
    expect(isQuietAt(NY, DEFAULT, at('2026-03-08T12:00:00.000Z'))).toBe(false); // 08:00 EDT
    expect(isQuietAt(NY, DEFAULT, at('2026-03-09T00:59:00.000Z'))).toBe(false); // 20:59 EDT
    expect(isQuietAt(NY, DEFAULT, at('2026-03-09T01:00:00.000Z'))).toBe(true); // 21:00 EDT
  });

  it('a window ending in the gap (21:00–02:30) opens at the first instant after it: 03:00 EDT', () => {
    const quiet = { start: '21:00', end: '02:30' };
    expect(isQuietAt(NY, quiet, at('2026-03-08T06:30:00.000Z'))).toBe(true); // 01:30 EST
    expect(isQuietAt(NY, quiet, at('2026-03-08T06:59:59.999Z'))).toBe(true); // 01:59:59.999 EST
    expect(isQuietAt(NY, quiet, at('2026-03-08T07:00:00.000Z'))).toBe(false); // 03:00 EDT
    expect(openAt(NY, quiet, '2026-03-08T02:00:00.000Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(openAt(NY, quiet, '2026-03-08T06:59:00.000Z')).toBe('2026-03-08T07:00:00.000Z');
    // The next night is an ordinary one: 02:30 EDT.
    expect(openAt(NY, quiet, '2026-03-09T01:00:00.000Z')).toBe('2026-03-09T06:30:00.000Z');
  });

  it('a window starting in the gap (02:30–08:00) starts when the clock jumps into it', () => {
    const quiet = { start: '02:30', end: '08:00' };
    expect(isQuietAt(NY, quiet, at('2026-03-08T06:59:00.000Z'))).toBe(false); // 01:59 EST
    expect(isQuietAt(NY, quiet, at('2026-03-08T07:00:00.000Z'))).toBe(true); // 03:00 EDT
    expect(openAt(NY, quiet, '2026-03-08T07:00:00.000Z')).toBe('2026-03-08T12:00:00.000Z');
  });
});

describe('America/New_York, fall back (2026-11-01, 02:00 EDT → 01:00 EST at 06:00Z)', () => {
  it('default window: 08:00 is 12:00Z on the Saturday (EDT) and 13:00Z on the Sunday (EST)', () => {
    expect(openAt(NY, DEFAULT, '2026-10-31T04:00:00.000Z')).toBe('2026-10-31T12:00:00.000Z'); // from 00:00 EDT
    expect(openAt(NY, DEFAULT, '2026-11-01T01:00:00.000Z')).toBe('2026-11-01T13:00:00.000Z'); // from 21:00 EDT
    expect(isQuietAt(NY, DEFAULT, at('2026-11-01T12:59:00.000Z'))).toBe(true); // 07:59 EST
    expect(isQuietAt(NY, DEFAULT, at('2026-11-01T13:00:00.000Z'))).toBe(false); // 08:00 EST
    expect(isQuietAt(NY, DEFAULT, at('2026-11-02T01:59:00.000Z'))).toBe(false); // 20:59 EST
    expect(isQuietAt(NY, DEFAULT, at('2026-11-02T02:00:00.000Z'))).toBe(true); // 21:00 EST
  });

  it('a window ending in the repeated hour (21:00–01:30) opens at its first occurrence, 01:30 EDT', () => {
    const quiet = { start: '21:00', end: '01:30' };
    expect(openAt(NY, quiet, '2026-11-01T01:00:00.000Z')).toBe('2026-11-01T05:30:00.000Z');
    expect(isQuietAt(NY, quiet, at('2026-11-01T05:29:59.999Z'))).toBe(true); // 01:29:59.999 EDT
    expect(isQuietAt(NY, quiet, at('2026-11-01T05:30:00.000Z'))).toBe(false); // 01:30 EDT
    expect(isQuietAt(NY, quiet, at('2026-11-01T05:59:00.000Z'))).toBe(false); // 01:59 EDT
  });

  it('the clock reading 01:00–01:30 again (EST) is quiet again, until the second 01:30', () => {
    const quiet = { start: '21:00', end: '01:30' };
    expect(isQuietAt(NY, quiet, at('2026-11-01T06:00:00.000Z'))).toBe(true); // 01:00 EST
    expect(isQuietAt(NY, quiet, at('2026-11-01T06:29:00.000Z'))).toBe(true); // 01:29 EST
    expect(isQuietAt(NY, quiet, at('2026-11-01T06:30:00.000Z'))).toBe(false); // 01:30 EST
    expect(openAt(NY, quiet, '2026-11-01T06:10:00.000Z')).toBe('2026-11-01T06:30:00.000Z');
  });

  it('a window starting in the repeated hour (01:30–08:00) is left when the clock falls back out of it', () => {
    const quiet = { start: '01:30', end: '08:00' };
    expect(isQuietAt(NY, quiet, at('2026-11-01T05:30:00.000Z'))).toBe(true); // 01:30 EDT
    expect(openAt(NY, quiet, '2026-11-01T05:30:00.000Z')).toBe('2026-11-01T06:00:00.000Z'); // 01:00 EST
    expect(openAt(NY, quiet, '2026-11-01T06:30:00.000Z')).toBe('2026-11-01T13:00:00.000Z'); // 01:30 EST → 08:00
  });
});

describe('Australia/Lord_Howe: half-hour daylight-saving shifts', () => {
  it('spring forward (2026-10-04, 02:00 → 02:30): a window ending at 02:15 opens at 02:30', () => {
    const quiet = { start: '21:00', end: '02:15' };
    // 21:00 on the 3rd at UTC+10:30 is 10:30Z; 02:30 on the 4th at UTC+11 is 15:30Z.
    expect(openAt(LORD_HOWE, quiet, '2026-10-03T10:30:00.000Z')).toBe('2026-10-03T15:30:00.000Z');
    expect(isQuietAt(LORD_HOWE, quiet, at('2026-10-03T15:29:59.999Z'))).toBe(true); // 01:59:59.999 +10:30
    expect(isQuietAt(LORD_HOWE, quiet, at('2026-10-03T15:30:00.000Z'))).toBe(false); // 02:30 +11
    // The next night, an ordinary one at UTC+11: 02:15 is 15:15Z.
    expect(openAt(LORD_HOWE, quiet, '2026-10-04T10:00:00.000Z')).toBe('2026-10-04T15:15:00.000Z');
  });

  it('spring forward: the default window opens at 08:00 UTC+11', () => {
    expect(openAt(LORD_HOWE, DEFAULT, '2026-10-03T10:30:00.000Z')).toBe('2026-10-03T21:00:00.000Z');
    expect(isQuietAt(LORD_HOWE, DEFAULT, at('2026-10-03T20:59:00.000Z'))).toBe(true); // 07:59 +11
  });

  it('fall back (2026-04-05, 02:00 → 01:30): a window ending at 01:45 opens at its first occurrence', () => {
    const quiet = { start: '21:00', end: '01:45' };
    // 21:00 on the 4th at UTC+11 is 10:00Z; the first 01:45 (UTC+11) is 14:45Z; the clock falls back
    // from 02:00 to 01:30 at 15:00Z and reads 01:45 again (UTC+10:30) at 15:15Z.
    expect(openAt(LORD_HOWE, quiet, '2026-04-04T10:00:00.000Z')).toBe('2026-04-04T14:45:00.000Z');
    expect(isQuietAt(LORD_HOWE, quiet, at('2026-04-04T14:59:00.000Z'))).toBe(false); // 01:59 +11
    expect(isQuietAt(LORD_HOWE, quiet, at('2026-04-04T15:00:00.000Z'))).toBe(true); // 01:30 +10:30
    expect(openAt(LORD_HOWE, quiet, '2026-04-04T15:05:00.000Z')).toBe('2026-04-04T15:15:00.000Z');
  });

  it('fall back: the default window opens at 08:00 UTC+10:30', () => {
    expect(openAt(LORD_HOWE, DEFAULT, '2026-04-04T10:00:00.000Z')).toBe('2026-04-04T21:30:00.000Z');
    expect(isQuietAt(LORD_HOWE, DEFAULT, at('2026-04-04T21:29:00.000Z'))).toBe(true); // 07:59 +10:30
  });
});

describe('nextOpenAt agrees with isQuietAt minute by minute across the changes', () => {
  const windows: QuietHours[] = [
    DEFAULT,
    { start: '21:00', end: '02:30' },
    { start: '21:00', end: '01:30' },
    { start: '01:30', end: '08:00' },
    { start: '02:15', end: '02:45' },
    { start: '12:00', end: '13:00' },
  ];
  const cases: Array<[string, readonly string[], string]> = [
    ['New York, March', NY, '2026-03-07T12:00:00.000Z'],
    ['New York, November', NY, '2026-10-31T12:00:00.000Z'],
    ['Lord Howe, October', LORD_HOWE, '2026-10-03T00:00:00.000Z'],
    ['Lord Howe, April', LORD_HOWE, '2026-04-04T00:00:00.000Z'],
    ['New York and Los Angeles, November', ['America/New_York', 'America/Los_Angeles'], '2026-10-31T12:00:00.000Z'],
  ];

  /** The reference: try every minute (every boundary in these zones falls on a whole minute). */
  const scan = (zones: readonly string[], quiet: QuietHours, from: number): number => {
    let t = from;
    while (isQuietAt(zones, quiet, new Date(t))) t += 60_000;
    return t;
  };

  it.each(cases)('%s', (_name, zones, startIso) => {
    const start = Date.parse(startIso);
    for (const quiet of windows) {
      for (let t = start; t < start + 36 * 3_600_000; t += 97 * 60_000) {
        const next = nextOpenAt(zones, quiet, new Date(t));
        expect({ quiet, from: new Date(t).toISOString(), next: next?.toISOString() }).toEqual({
          quiet,
          from: new Date(t).toISOString(),
          next: new Date(scan(zones, quiet, t)).toISOString(),
        });
      }
    }
  });
});
