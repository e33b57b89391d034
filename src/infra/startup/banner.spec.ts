import { listeningUrl, startupBanner } from './banner';

const facts = {
  generatedAdminToken: 'adm_generated',
  listeningUrl: 'http://127.0.0.1:3000',
  baseUrl: 'http://127.0.0.1:3000',
  webhookAllowPrivateUrls: false,
  logLevel: 'info',
};

describe('startupBanner', () => {
  it('starts with the generated token, then the API, /docs and /dashboard addresses', () => {
    expect(startupBanner(facts)).toEqual([
      'ADMIN_TOKEN=adm_generated',
      '  operator token for /admin/v1, new on every start (set ADMIN_TOKEN to keep one)',
      'API        http://127.0.0.1:3000',
      'API docs   http://127.0.0.1:3000/docs',
      'Dashboard  http://127.0.0.1:3000/dashboard',
      'Logs follow as JSON lines (LOG_LEVEL=info).',
    ]);
  });

  it('never prints a token that came from the environment', () => {
    const lines = startupBanner({ ...facts, generatedAdminToken: null });
    expect(lines[0]).toBe('ADMIN_TOKEN is set from the environment (not printed)');
    expect(lines.join('\n')).not.toMatch(/ADMIN_TOKEN=/);
  });

  it('warns when WEBHOOK_ALLOW_PRIVATE_URLS is on', () => {
    const text = startupBanner({ ...facts, webhookAllowPrivateUrls: true }).join('\n');
    expect(text).toMatch(/^WARNING: WEBHOOK_ALLOW_PRIVATE_URLS is on: .*\n.*Development only\.$/m);
    expect(startupBanner(facts).join('\n')).not.toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
  });

  it('names BASE_URL when links point elsewhere than the listening address', () => {
    const lines = startupBanner({ ...facts, baseUrl: 'https://voice.example.com' });
    expect(lines).toContain('BASE_URL   https://voice.example.com (the base of links the service hands out)');
  });
});

describe('listeningUrl', () => {
  it('is the bound address and port, IPv6 bracketed', () => {
    expect(listeningUrl({ address: '127.0.0.1', port: 40123 }, 'x')).toBe('http://127.0.0.1:40123');
    expect(listeningUrl({ address: '::1', port: 3000 }, 'x')).toBe('http://[::1]:3000');
    expect(listeningUrl(null, 'http://fallback:1')).toBe('http://fallback:1');
  });
});
