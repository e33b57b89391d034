import {
  csrfMatches,
  csrfTokenOf,
  hashCredential,
  isCredential,
  newCredential,
  safeDashboardPath,
  sessionCookieName,
} from './dashboard-credentials';

describe('dashboard credentials', () => {
  it('links and sessions are 256-bit tokens of their own kind, stored only as hashes', () => {
    const link = newCredential('dl');
    const session = newCredential('ds');
    expect(link).toMatch(/^dl_[A-Za-z0-9_-]{43}$/);
    expect(isCredential('dl', link)).toBe(true);
    expect(isCredential('ds', link)).toBe(false);
    expect(isCredential('ds', session)).toBe(true);
    expect(isCredential('dl', `${link}x`)).toBe(false);
    expect(isCredential('dl', 42)).toBe(false);
    expect(newCredential('dl')).not.toBe(link);
    expect(hashCredential(link)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashCredential(link)).not.toContain(link.slice(3));
  });

  it("the CSRF token is the session's own: another session's or a forged one does not match", () => {
    const session = newCredential('ds');
    const token = csrfTokenOf(session);
    expect(csrfMatches(session, token)).toBe(true);
    expect(csrfMatches(session, csrfTokenOf(newCredential('ds')))).toBe(false);
    expect(csrfMatches(session, token.slice(0, -1))).toBe(false);
    expect(csrfMatches(session, undefined)).toBe(false);
    expect(csrfMatches(session, ['a'])).toBe(false);
    expect(token).not.toContain(session.slice(3, 20));
  });

  it('after sign-in the browser goes to a dashboard path of this origin, nowhere else', () => {
    for (const ok of ['/dashboard', '/dashboard/campaigns/cmp_1', '/dashboard/sessions?status=completed'])
      expect(safeDashboardPath(ok)).toBe(ok);
    for (const bad of [
      'https://evil.example/dashboard',
      '//evil.example/dashboard',
      '/dashboard//evil.example',
      '/dashboard/../admin',
      '/dashboardx',
      '/v1/credits',
      'javascript:alert(1)',
      '/dashboard/"><script>',
      `/dashboard/${'a'.repeat(400)}`,
      42,
      undefined,
    ])
      expect(safeDashboardPath(bad)).toBeNull();
  });
});

describe('the session cookie', () => {
  it('is __Host- prefixed under https, so that no sibling subdomain can plant or shadow it', () => {
    expect(sessionCookieName(true)).toBe('__Host-vap_dashboard');
    expect(sessionCookieName(false)).toBe('vap_dashboard');
  });
});
