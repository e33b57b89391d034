/**
 * The architecture decision records (docs/decisions/NNNN-slug.md, one file per record) and their
 * index, docs/decisions/README.md, which `npm run docs:decisions` (scripts/decisions-index.mjs)
 * writes from them: the index is what the script would write, every number from 1 to the last has a
 * file, and each file starts with its own number and says its status.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const DIR = join(ROOT, 'docs', 'decisions');

const records = readdirSync(DIR)
  .filter((file) => file !== 'README.md')
  .sort()
  .map((file) => ({ file, text: readFileSync(join(DIR, file), 'utf8') }));

describe('the decision records', () => {
  it('are one file per number, from 1 to the last, named NNNN-slug.md', () => {
    expect(records.length).toBeGreaterThan(150);
    records.forEach(({ file }, index) => {
      expect(file).toMatch(new RegExp(`^${String(index + 1).padStart(4, '0')}-[a-z0-9]+(-[a-z0-9]+)*\\.md$`));
    });
  });

  it.each(records.map((r) => [r.file, r.text] as const))('%s starts with its number and has a status', (file, text) => {
    const number = Number(file.slice(0, 4));
    expect(text.split('\n', 1)[0]).toMatch(new RegExp(`^# ${number}\\. \\S`));
    expect(text).toMatch(/^Status: (accepted|unused|superseded by \[\d+\]\(\d{4}-[a-z0-9-]+\.md\))/m);
  });

  it('link only to records that exist', () => {
    const files = new Set(records.map((r) => r.file));
    for (const { file, text } of records) {
      for (const [, target] of text.matchAll(/\]\((\d{4}-[a-z0-9-]+\.md)\)/g)) {
        expect([file, target, files.has(target!)]).toEqual([file, target, true]);
      }
    }
  });

  it('have an index that is what npm run docs:decisions writes', () => {
    expect(() =>
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'decisions-index.mjs'), '--check'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ).not.toThrow();
  });
});
