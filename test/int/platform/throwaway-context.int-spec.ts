/**
 * Adding a bounded context is its folder plus its entry in app.module.ts (docs/architecture.md,
 * "Adding a bounded context"). This test copies src/ to a temporary folder, writes a throwaway
 * context there (`src/probe/`: module, public face, catalog fragment with one event type, one
 * migration, one setting, one operator route), adds `ProbeModule` to CONTEXTS (its import and its
 * entry: the only edit outside the folder), and shows on that copy, with no other file edited:
 *
 * - the type checker accepts it, and the typed union of catalog events holds its event type;
 * - dependency-cruiser's rules cover it with no edit of .dependency-cruiser.cjs: clean, it has no
 *   violation; reaching into another context is `context-through-public-face`; a context folder
 *   without its index.ts is `context-has-module-and-public-face`;
 * - its migration runs once on a real PostgreSQL database with every other migration;
 * - its event type is in the catalog, docs/events.md's rendering, the event-type snapshot and the
 *   OpenAPI webhooks;
 * - its setting is parsed by loadAppConfig() (and refused when bad, with the others), and shows in
 *   docs/configuration.md's generated tables.
 *
 * What it does not do: boot the copy's HTTP app (the route is type-checked and rule-checked, not
 * requested), nor run `npm run docs:generate` on the copy (it calls the same render functions).
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { copySourceWith, filesUnder, ROOT, type SourceCopy } from '../../support/source-copy';

let COPY = '';
const PROBE_MIGRATION = 'ProbeNotes1795636800000';

const PROBE_FILES: Record<string, string> = {
  'probe.events.ts': `import { defineEvents } from '../catalog/event-fragment';
import { object, text, timestamp } from '../catalog/payload-schema';

export interface ProbePingedData {
  probe_id: string;
  pinged_at: string;
}

export type ProbePayloads = { 'probe.pinged': ProbePingedData };

export const probeEvents = defineEvents<ProbePayloads>({
  groups: { probe: 'Probe events' },
  events: {
    'probe.pinged': {
      description: 'A throwaway context was pinged (test/int/platform/throwaway-context.int-spec.ts).',
      payload: object<ProbePingedData>({ probe_id: text(), pinged_at: timestamp() }),
      example: { probe_id: 'prb_1', pinged_at: '2026-03-02T16:58:00.250Z' },
    },
  },
});
`,
  'probe.migrations.ts': `import type { QueryRunner } from 'typeorm';
import { ForwardOnlyMigration, type Migration } from '../runtime/bounded-context';

export class ${PROBE_MIGRATION} extends ForwardOnlyMigration {
  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE TABLE IF NOT EXISTS probe_notes (note_id text PRIMARY KEY)');
  }
}

export const probeMigrations: Migration[] = [${PROBE_MIGRATION}];
`,
  'probe.config.ts': `import { defineSettings } from '../config/config-section';

export const probeSettings = defineSettings<{ greeting: string; pings: number }>({
  title: 'Probe',
  variables: [
    { variable: 'PROBE_GREETING', default: '\`hello\`', meaning: 'What the probe says.' },
    { variable: 'PROBE_PINGS', default: '\`3\`', meaning: 'Pings: an integer from 1 to 10.' },
  ],
  parse: ({ str, int }) => ({ greeting: str('PROBE_GREETING') ?? 'hello', pings: int('PROBE_PINGS', 3, 1, 10) }),
});
`,
  'api/probe.controller.ts': `import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { AdminGuard } from '../../infra/http/admin.guard';
import { GetTenant } from '../../tenants';
import { probeSettings } from '../probe.config';

@ApiTags('operator')
@UseGuards(AdminGuard)
@Controller('admin/v1/probe')
export class ProbeController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  greet() {
    return { greeting: settingsOf(this.config, probeSettings).greeting, query: GetTenant.name };
  }
}
`,
  'probe.module.ts': `import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { ProbeController } from './api/probe.controller';
import { probeSettings } from './probe.config';
import { probeEvents, type ProbePayloads } from './probe.events';
import { probeMigrations } from './probe.migrations';

@Module({ controllers: [ProbeController] })
export class ProbeModule {
  static readonly context: BoundedContext<ProbePayloads> = {
    name: 'probe',
    migrations: probeMigrations,
    events: probeEvents,
    settings: probeSettings,
  };
}
`,
  'index.ts': `export { ProbeModule } from './probe.module';
export type { ProbePingedData } from './probe.events';
`,
  // Compile-time: the typed union of catalog events, derived from CONTEXTS, holds the probe's type.
  'probe-types.check.ts': `import type { CatalogEvent } from '../app.module';

export const pinged: CatalogEvent = {
  type: 'probe.pinged',
  data: { probe_id: 'prb_1', pinged_at: '2026-01-01T00:00:00.000Z' },
};
`,
};

interface CopiedApp {
  eventCatalog: import('../../../src/catalog/event-catalog').EventCatalog;
  contextMigrations(): import('../../../src/runtime/bounded-context').Migration[];
  contextSettings(): import('../../../src/config/config-section').ConfigSection<unknown>[];
  loadAppConfig(env: Record<string, string>): import('../../../src/config/config').AppConfig;
}

describe('a throwaway context is its folder plus its entry in app.module.ts', () => {
  let app: CopiedApp;
  let database: TestDatabase | undefined;
  let copy: SourceCopy;

  beforeAll(() => {
    copy = copySourceWith('throwaway-context', 'probe', PROBE_FILES, { name: 'ProbeModule', file: 'probe.module' });
    COPY = copy.dir;
    app = copy.load<CopiedApp>('app.module');
  });

  afterAll(async () => {
    await database?.drop();
    copy.remove();
  });

  it('edits no file outside src/probe/ but app.module.ts, and there only adds its import and entry', () => {
    const original = filesUnder(join(ROOT, 'src'));
    const copied = filesUnder(join(COPY, 'src'));
    expect(copied.filter((f) => !original.includes(f))).toEqual(
      Object.keys(PROBE_FILES)
        .map((f) => `probe/${f}`)
        .sort(),
    );
    const changed = original.filter(
      (f) => readFileSync(join(ROOT, 'src', f), 'utf8') !== readFileSync(join(COPY, 'src', f), 'utf8'),
    );
    expect(changed).toEqual(['app.module.ts']);
    const before = readFileSync(join(ROOT, 'src/app.module.ts'), 'utf8').split('\n');
    const after = readFileSync(join(COPY, 'src/app.module.ts'), 'utf8').split('\n');
    expect(after.filter((line) => !before.includes(line))).toEqual([
      "import { ProbeModule } from './probe/probe.module';",
      '  ProbeModule,',
    ]);
  });

  it('type-checks with all it reaches, its event type in the typed union of catalog events', async () => {
    expect(await copy.typecheck()).toBe('');
  }, 180_000);

  it("is held to the dependency rules, with no edit of the rules' file", async () => {
    expect(await copy.depcruise(['src/probe'])).not.toMatch(/^\s*error [a-z-]+:/m);
    writeFileSync(
      join(COPY, 'src/probe/reach.ts'),
      "import { TenantsQueries } from '../tenants/application/tenants.queries';\nexport const q = TenantsQueries;\n",
    );
    mkdirSync(join(COPY, 'src/faceless'), { recursive: true });
    writeFileSync(join(COPY, 'src/faceless/faceless.module.ts'), 'export class FacelessModule {}\n');
    const found = await copy.depcruise(['src/probe', 'src/faceless']);
    unlinkSync(join(COPY, 'src/probe/reach.ts'));
    expect(found).toMatch(/context-through-public-face: src\/probe\/reach\.ts → src\/tenants\/application\//);
    expect(found).toMatch(/context-has-module-and-public-face: src\/faceless\/faceless\.module\.ts/);
  }, 120_000);

  it('its migration runs once, with every other, on a real database', async () => {
    const names = app.contextMigrations().map((m) => m.name);
    expect(names).toContain(PROBE_MIGRATION);
    database = await createTestDatabase({ migrate: false });
    const { migrateDatabase } =
      copy.load<typeof import('../../../src/infra/database/migrations')>('infra/database/migrations');
    await migrateDatabase(database.url, app.contextMigrations());
    await migrateDatabase(database.url, app.contextMigrations());
    const { rows } = await database.pool.query<{ name: string }>('SELECT name FROM migrations WHERE name = $1', [
      PROBE_MIGRATION,
    ]);
    expect(rows).toHaveLength(1);
    await database.pool.query("INSERT INTO probe_notes VALUES ('n1')");
  });

  it('its event type is in the catalog, docs/events.md, the snapshot and the OpenAPI webhooks', () => {
    const { renderEventsMarkdown } = copy.load<typeof import('../../../src/catalog/events-doc')>('catalog/events-doc');
    const { renderEventTypesSnapshot } =
      copy.load<typeof import('../../../src/catalog/event-types-snapshot')>('catalog/event-types-snapshot');
    const { buildOpenApiWebhooks } =
      copy.load<typeof import('../../../src/catalog/openapi-webhooks')>('catalog/openapi-webhooks');
    expect(app.eventCatalog.types).toContain('probe.pinged');
    expect(app.eventCatalog.validatePayload('probe.pinged', { probe_id: 'p', pinged_at: 'nope' })).not.toEqual([]);
    expect(renderEventsMarkdown(app.eventCatalog)).toContain('### `probe.pinged`');
    expect(renderEventTypesSnapshot(app.eventCatalog)).toContain("  'probe.pinged',");
    expect(Object.keys(buildOpenApiWebhooks(app.eventCatalog))).toContain('probe.pinged');
  });

  it('its setting is parsed with the others, refused when bad, and documented', () => {
    const { settingsOf } = copy.load<typeof import('../../../src/config/config')>('config/config');
    const { withGeneratedSettings } =
      copy.load<typeof import('../../../src/config/settings-doc')>('config/settings-doc');
    const section = app.contextSettings().find((s) => s.title === 'Probe');
    if (section === undefined) throw new Error('the probe section is not registered');
    expect(settingsOf(app.loadAppConfig({ PROBE_GREETING: 'hi' }), section)).toEqual({ greeting: 'hi', pings: 3 });
    let problems: string[] = [];
    try {
      app.loadAppConfig({ PROBE_PINGS: '11', PORT: 'x' });
    } catch (error) {
      problems = (error as { problems: string[] }).problems;
    }
    expect(problems).toEqual([
      'PORT must be an integer between 0 and 65535 (got "x")',
      'PROBE_PINGS must be an integer between 1 and 10 (got "11")',
    ]);
    const doc = withGeneratedSettings(readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8'), app.contextSettings());
    expect(doc).toContain('| `PROBE_PINGS` | `3` | Pings: an integer from 1 to 10. |');
  });
});
