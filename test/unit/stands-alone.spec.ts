/**
 * The repository stands alone (decision 71): nothing in it sends a reader to a document that is not
 * in it. The rules the code and the tests rely on are stated in the project's own docs (docs/*.md,
 * docs/events.md, the OpenAPI document), and comments, tests and docs point there. This test reads
 * every file of the repository (tracked, or new and not ignored) and fails naming each file and line
 * that names one of the outside documents the platform was first specified in.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** Built from parts, so that this file does not name them itself. */
const OUTSIDE_DOCUMENTS = ['SPEC', 'CONTRACT'].map((name) => `${name}.${'md'}`);

/** Never part of the repository: installed, built or generated at run time. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.git', '.data', '.test-data', 'coverage']);

/** The repository's files, relative to its root: git's list when git can give it, else a walk. */
function repositoryFiles(): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return listed.toString('utf8').split('\0').filter(Boolean);
  } catch {
    return walk(ROOT);
  }
}

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) files.push(...walk(join(dir, entry.name)));
    } else if (entry.isFile()) files.push(relative(ROOT, join(dir, entry.name)));
  }
  return files;
}

/** `file:line: text` for every line of a text file that names an outside document. */
function mentions(path: string): string[] {
  const full = join(ROOT, path);
  let stat;
  try {
    stat = lstatSync(full);
  } catch {
    return []; // listed by git but deleted in the work tree
  }
  if (!stat.isFile()) return []; // the node_modules symlink of a work tree, and the like
  const bytes = readFileSync(full);
  if (bytes.includes(0)) return []; // binary (images, audio fixtures)
  const found: string[] = [];
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((line, index) => {
      if (OUTSIDE_DOCUMENTS.some((name) => line.includes(name))) found.push(`${path}:${index + 1}: ${line.trim()}`);
    });
  return found;
}

describe('the repository stands alone', () => {
  const files = repositoryFiles().filter((path) => !path.split('/').some((part) => SKIPPED_DIRECTORIES.has(part)));

  it('reads the whole repository', () => {
    expect(files).toContain('package.json');
    expect(files).toContain('docs/api.md');
    expect(files.length).toBeGreaterThan(100);
  });

  it('names no document outside it (point to docs/*.md or the OpenAPI document instead)', () => {
    const found = files.flatMap(mentions);
    expect(found).toEqual([]);
  });
});
