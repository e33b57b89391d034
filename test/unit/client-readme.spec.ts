/**
 * The Node client's README examples compile: each ```ts block of clients/node/README.md is written
 * to a module of its own and type-checked with tsc against the client's source (strict, as an ES
 * module with top-level await). An example that drifts from the client, or the client from the
 * OpenAPI document it is typed from, fails here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const README = join(ROOT, 'clients', 'node', 'README.md');

function examples(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('the Node client README', () => {
  const blocks = examples(readFileSync(README, 'utf8'));

  it('has TypeScript examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it('compiles every example against the client', () => {
    const dir = mkdtempSync(join(ROOT, '.readme-examples-'));
    try {
      const files = blocks.map((code, i) => {
        const file = join(dir, `example-${i + 1}.mts`);
        writeFileSync(file, code);
        return file;
      });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'node16',
            moduleResolution: 'node16',
            lib: ['ES2023', 'DOM'],
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules', '@types')],
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            paths: { '@voice-agent/client': [join(ROOT, 'clients', 'node', 'src', 'index.ts')] },
          },
          files,
        }),
      );
      let output = '';
      try {
        execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
          encoding: 'utf8',
          stdio: 'pipe',
        });
      } catch (err) {
        output = String((err as { stdout?: string }).stdout ?? err);
      }
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
