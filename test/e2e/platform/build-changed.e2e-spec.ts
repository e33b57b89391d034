/**
 * `npm start` builds only what changed (`node scripts/build.mjs --changed`): a part whose inputs
 * hash to its stamp is skipped; an edited source, a removed output or a build that failed is built
 * again. Run on a copy of the repository's tracked files (the client part, the quickest to build),
 * so the working tree is never touched.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../../support/process';

jest.setTimeout(180_000);

function buildChanged(root: string, ...args: string[]): { status: number | null; stdout: string; ms: number } {
  const started = Date.now();
  const res = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--changed', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: res.status, stdout: res.stdout + res.stderr, ms: Date.now() - started };
}

describe('node scripts/build.mjs --changed (npm start)', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'vap-build-'));
    const tracked = execFileSync('git', ['ls-files', 'scripts', 'clients/node', 'package-lock.json'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    for (const file of tracked) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      copyFileSync(join(REPO_ROOT, file), join(copy, file));
    }
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'));
  });
  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  it('builds a part with no stamp, then skips it while its inputs are unchanged', () => {
    const first = buildChanged(copy, '--only', 'client');
    expect(first).toMatchObject({ status: 0, stdout: expect.stringContaining('build: client changed, building') });
    expect(existsSync(join(copy, 'clients/node/dist/cjs/cli.js'))).toBe(true);
    expect(readFileSync(join(copy, 'clients/node/dist/.inputs'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);

    const second = buildChanged(copy, '--only', 'client');
    expect(second).toMatchObject({ status: 0, stdout: '' });
    expect(second.ms).toBeLessThan(3000);
  });

  it('builds again after a source changes (an edit, a git pull), and after its output is removed', () => {
    const version = join(copy, 'clients/node/src/version.ts');
    appendFileSync(version, '\nexport const EDITED_FOR_TEST = 1;\n');
    expect(buildChanged(copy, '--only', 'client')).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('building'),
    });
    expect(readFileSync(join(copy, 'clients/node/dist/cjs/version.js'), 'utf8')).toContain('EDITED_FOR_TEST');

    rmSync(join(copy, 'clients/node/dist'), { recursive: true });
    expect(buildChanged(copy, '--only', 'client')).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('building'),
    });
    expect(buildChanged(copy, '--only', 'client').stdout).toBe('');
  });

  it('a build that fails leaves no stamp: the next start tries again', () => {
    const version = join(copy, 'clients/node/src/version.ts');
    const good = readFileSync(version, 'utf8');
    writeFileSync(version, `${good}\nexport const broken: number = 'not a number';\n`);
    expect(buildChanged(copy, '--only', 'client').status).not.toBe(0);
    expect(existsSync(join(copy, 'clients/node/dist/.inputs'))).toBe(false);

    writeFileSync(version, good);
    expect(buildChanged(copy, '--only', 'client')).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('building'),
    });
  });

  it('a full build (npm run build, npm test, CI) builds whatever the stamps say, and writes them', () => {
    const full = spawnSync(process.execPath, [join(copy, 'scripts/build.mjs'), '--only', 'client'], {
      cwd: copy,
      encoding: 'utf8',
    });
    expect(full.status).toBe(0);
    expect(buildChanged(copy, '--only', 'client')).toMatchObject({ status: 0, stdout: '' });
  });
});
