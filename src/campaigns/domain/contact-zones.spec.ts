import { isValidTimeZone, zonesForContact } from './contact-zones';

/** The module loaded afresh with its prefix table decoded as `decode` says (the table is read once per module). */
function withPrefixTable(decode: () => Record<string, string>): typeof zonesForContact {
  let fresh: typeof zonesForContact | undefined;
  jest.isolateModules(() => {
    jest.doMock('bson', () => ({ deserialize: decode }));
    fresh = jest.requireActual<typeof import('./contact-zones')>('./contact-zones').zonesForContact;
  });
  jest.dontMock('bson');
  return fresh!;
}

describe('isValidTimeZone', () => {
  it.each(['America/New_York', 'Europe/Paris', 'Australia/Lord_Howe', 'UTC', 'Etc/GMT+5', 'Asia/Kolkata'])(
    '%s is valid',
    (zone) => {
      expect(isValidTimeZone(zone)).toBe(true);
    },
  );

  it.each(['', 'Mars/Olympus_Mons', 'America/New York', '+05:00', 'local', 'Etc/Unknown'])('%j is not', (zone) => {
    expect(isValidTimeZone(zone)).toBe(false);
  });
});

describe('zonesForContact', () => {
  it('a geographic number gets the zone of its area code', async () => {
    await expect(zonesForContact('+14155550100')).resolves.toEqual(['America/Los_Angeles']);
    await expect(zonesForContact('+12125550100')).resolves.toEqual(['America/New_York']);
    await expect(zonesForContact('+33123456789')).resolves.toEqual(['Europe/Paris']);
  });

  it('the contact’s own valid time zone wins over the number', async () => {
    await expect(zonesForContact('+12125550100', 'Europe/Paris')).resolves.toEqual(['Europe/Paris']);
  });

  it('an invalid, empty or missing time zone falls back to the number', async () => {
    await expect(zonesForContact('+12125550100', 'Mars/Olympus_Mons')).resolves.toEqual(['America/New_York']);
    await expect(zonesForContact('+12125550100', '')).resolves.toEqual(['America/New_York']);
    await expect(zonesForContact('+12125550100', null)).resolves.toEqual(['America/New_York']);
    await expect(zonesForContact('+12125550100', undefined)).resolves.toEqual(['America/New_York']);
  });

  it('a toll-free number gets every zone of its prefix, deduplicated and sorted', async () => {
    const zones = await zonesForContact('+18005550100');
    expect(zones.length).toBeGreaterThan(1);
    expect(zones).toEqual(expect.arrayContaining(['America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu']));
    expect(zones).toEqual([...new Set(zones)].sort());
  });

  it.each(['not a number', '', '+1', '+999123', '+1415555010', '14155550100x'])('%j gets UTC', async (text) => {
    await expect(zonesForContact(text)).resolves.toEqual(['UTC']);
  });

  it('a valid number of no country (international freephone +800) gets UTC', async () => {
    await expect(zonesForContact('+80012345678')).resolves.toEqual(['UTC']);
  });

  it('when the prefix table has nothing, every zone of the number’s country', async () => {
    const empty = withPrefixTable(() => ({}));
    await expect(empty('+33123456789')).resolves.toEqual(['Europe/Paris']);
    const unknownZone = withPrefixTable(() => ({ '61': 'Etc/Unknown' }));
    const australia = await unknownZone('+61255501234');
    expect(australia).toEqual(
      expect.arrayContaining(['Australia/Lord_Howe', 'Australia/Perth', 'Australia/Sydney', 'Australia/Eucla']),
    );
    expect(australia).toEqual([...australia].sort());
  });

  it('a prefix table that cannot be read falls back to the country rather than throwing', async () => {
    const broken = withPrefixTable(() => {
      throw new Error('corrupt BSON');
    });
    await expect(broken('+61255501234')).resolves.toContain('Australia/Lord_Howe');
  });

  it('takes the longest prefix the table has', async () => {
    const zones = withPrefixTable(() => ({ '1': 'America/New_York&America/Chicago', '1415': 'America/Los_Angeles' }));
    await expect(zones('+14155550100')).resolves.toEqual(['America/Los_Angeles']);
    await expect(zones('+12125550100')).resolves.toEqual(['America/Chicago', 'America/New_York']);
  });
});
