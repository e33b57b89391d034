// Builds the five parts of the repository: the service (dist/), the dashboard (dist/dashboard-web/),
// the embedded speech engines' helpers (dist/speech/), the Node client with `vap` (clients/node/dist/)
// and the web SDK (clients/web/dist/).
//
//   node scripts/build.mjs            every part, always (npm run build, npm test, CI)
//   node scripts/build.mjs --changed  only the parts whose inputs changed since they were built (npm start)
//   --only service,dashboard,client,web  restricts either to the parts named
//
// A part's inputs are hashed: SHA-256 over the path and content of every input file, this script
// included. After a successful build the hash is written into the part's output folder (`.inputs`),
// so removing the output rebuilds it, and an edit, a `git pull` or a checkout that changes an input
// rebuilds the parts it belongs to; an unchanged part is skipped. Content, not modification times:
// a checkout that restores old content with new times is still up to date, and an edit within the
// same second is still seen. A full build rewrites every stamp, so `--changed` never trusts an
// output that a full build has since replaced.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const self = relative(root, fileURLToPath(import.meta.url));

/** The path of a package's binary, resolved from this repository's node_modules. */
function bin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bins === 'string' ? bins : bins[name]);
}

const TESTS = /\.(spec|int-spec|e2e-spec)\.ts$/;

export const PARTS = [
  {
    name: 'service',
    stamp: 'dist/.inputs-service',
    // What tsconfig.build.json compiles (src/**/*.ts without tests and the dashboard), and the types
    // of the dependencies (the lockfile).
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
    skip: (path) =>
      path.startsWith(`src${sep}dashboard${sep}web${sep}`) || TESTS.test(path) || !/\.(ts|json)$/.test(path),
    command: () => [bin('typescript', 'tsc'), '-p', 'tsconfig.build.json'],
  },
  {
    name: 'dashboard',
    stamp: 'dist/dashboard-web/.inputs',
    inputs: ['src/dashboard/web', 'package-lock.json'],
    skip: (path) => TESTS.test(path),
    command: () => [bin('vite', 'vite'), 'build', '-c', 'src/dashboard/web/vite.config.mts'],
  },
  {
    name: 'speech',
    stamp: 'dist/speech/.inputs',
    // The embedded speech engines' warm helpers (native/build.mjs: skipped, with a notice, without the
    // Debian headers).
    inputs: ['native'],
    skip: () => false,
    command: () => ['native/build.mjs'],
  },
  {
    name: 'client',
    stamp: 'clients/node/dist/.inputs',
    inputs: [
      'clients/node/src',
      'clients/node/scripts',
      'clients/node/package.json',
      'clients/node/tsconfig.json',
      'clients/node/tsconfig.cjs.json',
      'clients/node/tsconfig.esm.json',
      'package-lock.json',
    ],
    skip: () => false,
    command: () => ['clients/node/scripts/build.mjs'],
  },
  {
    name: 'web',
    stamp: 'clients/web/dist/.inputs',
    // The web SDK: one ES module and its types, which the rooms' landing page also serves.
    inputs: ['clients/web/src', 'clients/web/scripts', 'clients/web/package.json', 'clients/web/tsconfig.json'],
    skip: () => false,
    command: () => ['clients/web/scripts/build.mjs'],
  },
];

/** Every file under the given paths (relative to the root), sorted, minus what `skip` leaves out. */
function files(paths, skip) {
  const found = [];
  const walk = (path) => {
    for (const entry of readdirSync(join(root, path), { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && !skip(child)) found.push(child);
    }
  };
  for (const path of paths) {
    const full = join(root, path);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) walk(path);
    else found.push(path);
  }
  return [...new Set(found)].sort();
}

/** SHA-256 of this script and of every input file's path and content. */
export function inputsHash(part) {
  const hash = createHash('sha256');
  for (const path of [self, ...files(part.inputs, part.skip)]) {
    hash.update(`${path.split(sep).join('/')}\0`);
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp(part) {
  try {
    return readFileSync(join(root, part.stamp), 'utf8').trim();
  } catch {
    return null;
  }
}

function build(part, hash) {
  // The stamp goes first, so that a build that fails half-way is never taken for a finished one.
  rmSync(join(root, part.stamp), { force: true });
  const started = Date.now();
  const result = spawnSync(process.execPath, part.command(), { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${part.name} failed\n`);
    process.exit(result.status ?? 1);
  }
  mkdirSync(dirname(join(root, part.stamp)), { recursive: true });
  writeFileSync(join(root, part.stamp), `${hash}\n`);
  return Date.now() - started;
}

function main() {
  const args = process.argv.slice(2);
  const changedOnly = args.includes('--changed');
  const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '').split(',') : null;
  const unknown = (only ?? []).filter((name) => !PARTS.some((part) => part.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`build: unknown part ${unknown.join(', ')} (parts: ${PARTS.map((p) => p.name).join(', ')})\n`);
    process.exit(2);
  }
  for (const part of PARTS.filter((p) => only === null || only.includes(p.name))) {
    const hash = inputsHash(part);
    if (changedOnly && readStamp(part) === hash) continue;
    if (changedOnly) process.stdout.write(`build: ${part.name} changed, building…\n`);
    const ms = build(part, hash);
    if (changedOnly) process.stdout.write(`build: ${part.name} built in ${(ms / 1000).toFixed(1)} s\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
