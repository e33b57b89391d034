/**
 * `npx vap` in a fresh clone: the repository's tracked files of clients/node (no dist/, as after
 * `git clone`), installed by npm as the root's workspace. npm links a package's bin only when the
 * file exists at install time, so the bin must be a committed file; run through `npx`, it builds
 * the client on first use and shows the CLI's help.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../../support/process';

jest.setTimeout(180_000);

/** A clean environment: no npm_config_* or workspace settings of a parent `npm test`. */
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' };

describe('vap in a fresh clone', () => {
  let clone: string;

  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'vap-clone-'));
    // What `git clone` gives: the tracked files only (clients/node/dist is ignored).
    const tracked = execFileSync('git', ['ls-files', 'clients/node'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    for (const file of tracked) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      copyFileSync(join(REPO_ROOT, file), join(clone, file));
    }
    // The root names the client as its workspace, as this repository's package.json does. The
    // client's own dependencies are left out of the install (it runs offline) and linked from the
    // repository's node_modules below.
    writeFileSync(
      join(clone, 'package.json'),
      JSON.stringify({ name: 'fresh-clone', private: true, workspaces: ['clients/node'] }),
    );
    const manifest = JSON.parse(readFileSync(join(clone, 'clients/node/package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    delete manifest.dependencies;
    delete manifest.devDependencies;
    writeFileSync(join(clone, 'clients/node/package.json'), JSON.stringify(manifest, null, 2));
  });
  afterAll(() => {
    rmSync(clone, { recursive: true, force: true });
  });

  it('npm links the vap bin at install, before anything is built', () => {
    const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: clone,
      env,
      encoding: 'utf8',
    });
    expect({ status: install.status, stderr: install.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    expect(existsSync(join(clone, 'clients/node/dist'))).toBe(false);
    const link = join(clone, 'node_modules/.bin/vap');
    expect(existsSync(link)).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(join(clone, 'clients/node/bin/vap.js')));
  });

  it('`npx vap --help` builds the client on first use and prints the help', () => {
    // The rest of an `npm ci`: typescript, commander, openapi-fetch… from the repository's install.
    for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) {
      if (name === '.bin' || name === '@voice-agent' || existsSync(join(clone, 'node_modules', name))) continue;
      symlinkSync(join(REPO_ROOT, 'node_modules', name), join(clone, 'node_modules', name));
    }
    const run = spawnSync('npx', ['--no-install', 'vap', '--help'], { cwd: clone, env, encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({
      status: 0,
      stderr: expect.stringContaining('vap: first run, building @voice-agent/client'),
    });
    expect(run.stdout).toMatch(/^Usage: vap /);
    expect(run.stdout).toContain('listen [options]');
    expect(existsSync(join(clone, 'clients/node/dist/cjs/cli.js'))).toBe(true);

    // Built once: the next run starts the CLI at once.
    const again = spawnSync('npx', ['--no-install', 'vap', 'listen', '--help'], { cwd: clone, env, encoding: 'utf8' });
    expect({ status: again.status, stderr: again.stderr }).toEqual({ status: 0, stderr: '' });
    expect(again.stdout).toContain('--forward-to');
  });
});
