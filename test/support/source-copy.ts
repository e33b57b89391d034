/**
 * A copy of src/ with one more folder, for the tests that show what adding something takes: its folder
 * plus its entry in app.module.ts's CONTEXTS (throwaway-context.int-spec.ts, throwaway-transport.int-spec.ts).
 * The copy lives under .test-data/ (inside the repository, so that node_modules and the built speech
 * helpers are found from it).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = resolve(__dirname, '../..');

export interface SourceCopy {
  /** The copy's root (holds src/, tsconfig.json and .dependency-cruiser.cjs). */
  dir: string;
  /** `tsc` on the new folder and all it reaches: '' when clean, else the errors. */
  typecheck(): Promise<string>;
  /** dependency-cruiser's `err` output for `paths` of the copy. */
  depcruise(paths: string[]): Promise<string>;
  /** A module of the copy, loaded by Jest's require (its app.module.ts lists the new folder). */
  load<T>(path: string): T;
  remove(): void;
}

/**
 * Copies src/ to `.test-data/<name>-<pid>`, writes `files` into `src/<folder>/`, and adds `moduleName`
 * (from `src/<folder>/<moduleFile>`) to CONTEXTS: its import before rooms' and its entry last.
 */
export function copySourceWith(
  name: string,
  folder: string,
  files: Record<string, string>,
  module: { name: string; file: string },
): SourceCopy {
  const dir = join(ROOT, '.test-data', `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  tsconfig.compilerOptions = { ...tsconfig.compilerOptions, incremental: false, noEmit: true, types: ['node'] };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    // The new folder and all it reaches (app.module.ts, every context), and the entry point (type augmentations).
    JSON.stringify({ ...tsconfig, include: [`src/${folder}/**/*.ts`, 'src/main.ts'], exclude: [] }),
  );
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'src', folder, file, '..'), { recursive: true });
    writeFileSync(join(dir, 'src', folder, file), text);
  }
  const appModule = join(dir, 'src/app.module.ts');
  writeFileSync(appModule, addToContexts(readFileSync(appModule, 'utf8'), module.name, `./${folder}/${module.file}`));
  return {
    dir,
    async typecheck() {
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      return run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
        () => '',
        (error: Error & { stdout?: string }) => error.stdout ?? error.message,
      );
    },
    async depcruise(paths) {
      const bin = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
      const args = [bin, ...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'];
      try {
        const { stdout } = await run(process.execPath, args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
        return stdout;
      } catch (error) {
        return (error as Error & { stdout?: string }).stdout ?? (error as Error).message;
      }
    },
    load<T>(path: string): T {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(join(dir, 'src', `${path}.ts`)) as T;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The only edit outside the folder: the import and the entry in CONTEXTS. */
function addToContexts(appModule: string, name: string, from: string): string {
  const withImport = appModule.replace(
    "import { RoomsModule } from './rooms/rooms.module';",
    `import { ${name} } from '${from}';\nimport { RoomsModule } from './rooms/rooms.module';`,
  );
  const withEntry = withImport.replace('  DashboardModule,\n]', `  DashboardModule,\n  ${name},\n]`);
  if (withEntry === withImport || withImport === appModule) throw new Error('app.module.ts changed shape');
  return withEntry;
}

/** The files under `dir`, relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}
