// Builds dist/index.js (one ES module, no dependencies: what a bundler imports and what the room's
// landing page loads as {rooms_url}/assets/voice-agent.js) and its type declarations.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(resolve(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', resolve(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root });
