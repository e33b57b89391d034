/**
 * The Python client's unit tests and generated models: its pytest suite (httpx.MockTransport, no
 * service; tests/integration skips without one) runs with Debian's Python, and models.py must be what
 * scripts/python-models.mjs renders from clients/node/openapi.json (else: node scripts/python-models.mjs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const PACKAGE = resolve(ROOT, 'clients', 'python');

describe('the Python client', () => {
  it('models.py is up to date with the OpenAPI document (else: node scripts/python-models.mjs)', () => {
    expect(() =>
      execFileSync(process.execPath, [resolve(ROOT, 'scripts', 'python-models.mjs'), '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('passes its unit tests (pytest, httpx.MockTransport)', () => {
    const result = spawnSync(
      '/usr/bin/python3',
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--ignore', 'tests/integration', 'tests'],
      {
        cwd: PACKAGE,
        encoding: 'utf8',
        env: { ...process.env, PYTHONPATH: resolve(PACKAGE, 'src'), PYTHONDONTWRITEBYTECODE: '1' },
        timeout: 60_000,
      },
    );
    const output = `${result.stdout}${result.stderr}${result.error ? String(result.error) : ''}`;
    if (result.status !== 0) throw new Error(`pytest exited ${result.status}:\n${output}`);
    expect(output).toMatch(/\b\d+ passed\b/);
    expect(output).not.toMatch(/failed|error/i);
  });
});
