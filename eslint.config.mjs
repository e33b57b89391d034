// @ts-check
/**
 * Type-aware ESLint (flat config). `npm run lint` runs it with `--max-warnings 0`: every rule is
 * either an error or off, and a rule is only switched off below with the reason next to it.
 */
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Node's globals for the few plain JavaScript files (Jest config and global setup/teardown). */
const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  Buffer: 'readonly',
  URL: 'readonly',
  globalThis: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      '.test-data/**',
      'coverage/**',
      'docker/**',
      'bench/results/**',
      // Generated documentation and tool configuration, not application code.
      'docs/**',
      // The Node client's build output and its generated types (npm run client:generate).
      'clients/node/dist/**',
      'clients/node/src/generated/**',
      // The web SDK's build output (clients/web/scripts/build.mjs).
      'clients/web/dist/**',
    ],
  },
  {
    linterOptions: {
      // A `// eslint-disable` that no longer disables anything is itself an error.
      reportUnusedDisableDirectives: 'error',
    },
  },

  // TypeScript: everything in tsconfig.json (src/, test/, bench/) and clients/node/tsconfig.json, with type information.
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [eslint.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its error and its ordering: write `void` when it is meant.
      '@typescript-eslint/no-floating-promises': 'error',
      // Deciders switch over unions on `type`/`status` with a `never` default: adding a member breaks the
      // build. Reactors that handle a few types say so with an explicit `default`.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      // Promises passed where a void callback is expected (event emitters, setTimeout, Fastify hooks)
      // swallow rejections. There is no JSX here, so `attributes` has nothing to check.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // `_`-prefixed parameters are interface-mandated but unused (e.g. Nest lifecycle hooks, handlers).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Nest, TypeORM and pg hand back `any` in a few places (raw query results): cast once at the edge.
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },

  // Tests: assertions on results the test just built; mocks and fixtures are loosely typed.
  {
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      // `rows[0]!` after `expect(rows).toHaveLength(1)` is the clearest way to write a test.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // JSON bodies from HTTP responses and Jest mocks are `any` by nature.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Likewise a test HTTP client may type response bodies `any`: the test asserts their shape.
      '@typescript-eslint/no-explicit-any': 'off',
      // `expect(service.method).toHaveBeenCalled()` passes a method without calling it, on purpose.
      '@typescript-eslint/unbound-method': 'off',
      // Stubs of async APIs are written `async () => value` or `async () => { throw … }` to match the
      // real signature; an `await` inside would only add noise.
      '@typescript-eslint/require-await': 'off',
    },
  },

  // The application's code states its types instead of overruling them: `x as unknown as T` says
  // nothing was checked. Stored events and timer payloads are read through their edges
  // (src/kernel/event-edge.ts, src/runtime/timers/timer-kind.ts); elsewhere a type guard, a narrower
  // declared type or the library's own type does it (decision 90). Generated code is ignored above.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSAsExpression.expression > TSUnknownKeyword.typeAnnotation',
          message: 'No `as unknown as`: decode through an edge, or use a type guard or a narrower declared type.',
        },
      ],
    },
  },

  // Plain JavaScript (Jest config, test global setup): not in tsconfig.json, linted without types.
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [eslint.configs.recommended, tseslint.configs.disableTypeChecked],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { ...nodeGlobals, module: 'writable', require: 'readonly', __dirname: 'readonly' },
    },
  },

  // Browser scripts served as they are (the room's landing page): an ES module, the browser's globals.
  {
    files: ['src/rooms/assets/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        navigator: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        RTCPeerConnection: 'readonly',
        MediaStream: 'readonly',
        Float32Array: 'readonly',
        Promise: 'readonly',
      },
    },
  },

  // Last: turn off every stylistic rule that Prettier owns.
  prettier,
);
