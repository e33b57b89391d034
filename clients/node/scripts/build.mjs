// Builds dist/cjs (CommonJS) and dist/esm (ES modules), each with its type declarations and a
// package.json that tells Node which module system its .js files use.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(resolve(root, 'dist'), { recursive: true, force: true });
for (const [config, type] of [
  ['tsconfig.cjs.json', 'commonjs'],
  ['tsconfig.esm.json', 'module'],
]) {
  execFileSync(process.execPath, [tsc, '-p', resolve(root, config)], { stdio: 'inherit', cwd: root });
  const out = resolve(root, 'dist', type === 'module' ? 'esm' : 'cjs');
  mkdirSync(out, { recursive: true });
  writeFileSync(resolve(out, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
