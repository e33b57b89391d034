// Turns openapi.json (written by the service's `npm run client:generate`) into src/generated/api.ts
// with openapi-typescript. `--check` writes nothing and exits 1 when the committed file differs.
import openapiTS, { astToString } from 'openapi-typescript';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const input = resolve(root, 'openapi.json');
const output = resolve(root, 'src/generated/api.ts');
const check = process.argv.includes('--check');

const schema = JSON.parse(readFileSync(input, 'utf8'));
const ast = await openapiTS(schema, { alphabetize: false, exportType: false, defaultNonNullable: false });
const header =
  "// Generated from openapi.json (the service's /openapi.json) by `npm run client:generate`. Do not edit.\n\n";
const text = header + astToString(ast);
const current = existsSync(output) ? readFileSync(output, 'utf8') : null;
if (current === text) process.exit(0);
if (check) {
  process.stderr.write('clients/node/src/generated/api.ts is out of date: run `npm run client:generate`.\n');
  process.exit(1);
}
writeFileSync(output, text);
process.stdout.write('wrote: clients/node/src/generated/api.ts\n');
