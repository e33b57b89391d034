/**
 * The Python client's unit tests, generated files and types: its pytest suite (httpx.MockTransport,
 * no service; tests/integration skips without one) runs with Debian's Python; models.py must be what
 * scripts/python-models.mjs renders from clients/node/openapi.json, and _async.pyi what
 * clients/python/scripts/async_stub.py renders from the sync resources; and mypy --strict accepts a
 * typed consumer of both clients (tests/typing/consumer.py) and refuses each marked line of a wrong
 * one (tests/typing/wrong.py), as tsc does for the Node client's consumers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const PACKAGE = resolve(ROOT, 'clients', 'python');

describe('the Python client', () => {
  it('models.py is up to date with the OpenAPI document (else: node scripts/python-models.mjs)', () => {
    expect(() =>
      execFileSync(process.execPath, [resolve(ROOT, 'scripts', 'python-models.mjs'), '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('_async.pyi is up to date with the sync resources (else: scripts/async_stub.py)', () => {
    const result = spawnSync('/usr/bin/python3', ['scripts/async_stub.py', '--check'], {
      cwd: PACKAGE,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: resolve(PACKAGE, 'src'), PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  it('mypy --strict accepts a typed consumer of both clients and refuses each wrong line', () => {
    const result = spawnSync(
      '/usr/bin/python3',
      ['-m', 'mypy', '--strict', '--follow-imports=silent', '--cache-dir=/dev/null', 'consumer.py', 'wrong.py'],
      {
        cwd: resolve(PACKAGE, 'tests', 'typing'),
        encoding: 'utf8',
        env: { ...process.env, MYPYPATH: resolve(PACKAGE, 'src') },
        timeout: 60_000,
      },
    );
    const output = `${result.stdout}${result.stderr}`;
    const reported = [...output.matchAll(/^([\w.]+):(\d+): error:/gm)].map((m) => `${m[1]}:${m[2]}`);
    const marked = readFileSync(resolve(PACKAGE, 'tests', 'typing', 'wrong.py'), 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.includes('# WRONG') ? [`wrong.py:${i + 1}`] : []));
    expect(marked.length).toBeGreaterThanOrEqual(4);
    expect(reported).toEqual(marked);
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
