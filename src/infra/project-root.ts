import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project's root: the nearest folder above this file that holds `package.json`. Code finds the
 * files it ships beside the sources (room assets, the dashboard's build) from here, so the same path
 * works from the sources (tests, `src/…`), the service build (`dist/…`) and the benchmarks' build
 * (`dist/bench/src/…`), whatever their depth.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(__dirname);
