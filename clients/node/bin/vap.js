#!/usr/bin/env node
// `vap`: the package's binary. A small committed launcher, so that `npm ci` links `vap` in a fresh
// clone, where dist/ does not exist yet (npm links a bin only when its file is there at install).
// It runs the compiled CLI, dist/cjs/cli.js, building the package first when that is missing (in
// this repository; a published package ships dist/). `npm run build` and `npm start` rebuild it
// when its sources change.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const packageRoot = join(__dirname, '..');
const cli = join(packageRoot, 'dist', 'cjs', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('vap: first run, building @voice-agent/client into clients/node/dist…\n');
  const built = spawnSync(process.execPath, [join(packageRoot, 'scripts', 'build.mjs')], {
    cwd: packageRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0 || !existsSync(cli)) {
    process.stderr.write('vap: the build failed; run `npm run build` at the repository root and try again\n');
    process.exit(built.status || 1);
  }
}
// main() reports its own errors and sets the exit code.
void require(cli).main(process.argv);
