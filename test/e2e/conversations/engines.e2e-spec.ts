/**
 * The Node version the README asks for is the one package.json declares, and every `EBADENGINE`
 * warning `npm ci` prints on that version is one the README announces (decision 69): what
 * `npm ci --dry-run` reports for the lockfile, on a copy of the manifests, run with this Node.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/process';

jest.setTimeout(120_000);

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const manifest = (path: string): { engines: { node: string } } =>
  JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as { engines: { node: string } };

describe('Node engines: package.json, the README and npm ci agree', () => {
  it('the README asks for the version package.json declares, for the service and the client', () => {
    const asked = /Needs Node\.js (\d+\.\d+) or later/.exec(readme)?.[1];
    expect(asked).toBeDefined();
    expect(manifest('package.json').engines.node).toBe(`>=${asked}`);
    expect(manifest('clients/node/package.json').engines.node).toBe(`>=${asked}`);
    expect(readFileSync(join(REPO_ROOT, 'clients/node/README.md'), 'utf8')).toContain(`Node.js ${asked} or later`);
  });

  it('npm ci warns EBADENGINE only for the packages the README names', () => {
    const copy = mkdtempSync(join(tmpdir(), 'vap-engines-'));
    try {
      mkdirSync(join(copy, 'clients/node'), { recursive: true });
      for (const file of ['package.json', 'package-lock.json', 'clients/node/package.json']) {
        copyFileSync(join(REPO_ROOT, file), join(copy, file));
      }
      const run = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--offline'], {
        cwd: copy,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
        encoding: 'utf8',
      });
      expect({ status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ status: 0, stderr: '' });
      const warned = [...`${run.stdout}${run.stderr}`.matchAll(/EBADENGINE\s+package: '(@?[^@']+)@/g)].map((m) => m[1]);
      // The README's paragraph on `npm ci` names each expected warning in backquotes.
      const paragraph = readme.split('\n\n').find((p) => p.includes('EBADENGINE')) ?? '';
      const announced = [...paragraph.matchAll(/`([a-z@][\w@/.-]*)`/g)].map((m) => m[1]);
      expect([...new Set(warned)].sort()).toEqual([...new Set(announced)].sort());
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
