// `npm run lint:openapi` (after the build): writes the OpenAPI document the service serves at
// /openapi.json to dist/openapi.json, then lints it with Redocly (recommended rules, redocly.yaml)
// and Spectral (spectral:oas, .spectral.yaml). Fails on any error or warning of either.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { renderOpenApiJson } = require('../dist/cli/generate-client.js');

const DOCUMENT = 'dist/openapi.json';
writeFileSync(DOCUMENT, await renderOpenApiJson());

function run(args) {
  const result = spawnSync('npx', ['--no-install', ...args], { encoding: 'utf8' });
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

let failed = false;

const redocly = run(['redocly', 'lint', DOCUMENT, '--format=json']);
let totals;
try {
  totals = JSON.parse(redocly.stdout).totals;
} catch {
  process.stderr.write(`redocly did not run:\n${redocly.stdout}\n${redocly.stderr}\n`);
  process.exit(1);
}
process.stdout.write(
  `redocly (recommended): ${totals.errors} errors, ${totals.warnings} warnings, ${totals.ignored} ignored with a reason\n`,
);
if (totals.errors > 0 || totals.warnings > 0) {
  failed = true;
  process.stdout.write(run(['redocly', 'lint', DOCUMENT, '--format=stylish']).stdout);
}

const spectral = run(['spectral', 'lint', DOCUMENT, '--ruleset', '.spectral.yaml', '--fail-severity=warn']);
process.stdout.write(`spectral (spectral:oas): ${spectral.stdout.trim() || 'no problems'}\n`);
if (spectral.status !== 0) failed = true;

process.exit(failed ? 1 : 0);
