/**
 * The contexts' settings sections (src/<context>/<context>.config.ts, registered as their
 * BoundedContext's `settings`): docs/configuration.md shows exactly what they declare, and each
 * declares exactly the variables it reads.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { contextSettings, loadAppConfig } from '../../src/app.module';
import { loadConfig } from '../../src/config/config';
import { envReader } from '../../src/config/env-reader';
import { CONFIGURATION_DOC_PATH, withGeneratedSettings } from '../../src/config/settings-doc';

const ROOT = resolve(__dirname, '../..');

/** The names a function asks of the environment. */
function namesRead(read: (env: Record<string, string | undefined>) => unknown): Set<string> {
  const names = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_, name) {
        if (typeof name === 'string') names.add(name);
        return undefined;
      },
    },
  );
  read(env);
  return names;
}

describe('the contexts’ settings', () => {
  const sections = contextSettings();

  it('are registered (voices, dashboard)', () => {
    expect(sections.map((s) => s.title)).toEqual(
      expect.arrayContaining(['Voice clones', 'Dashboard sign-in by e-mail']),
    );
  });

  it('docs/configuration.md shows them as declared (npm run docs:generate rewrites its generated part)', () => {
    const onDisk = readFileSync(resolve(ROOT, CONFIGURATION_DOC_PATH), 'utf8');
    expect(onDisk).toBe(withGeneratedSettings(onDisk, sections));
  });

  it.each(sections.map((s) => [s.title, s] as const))('%s declares exactly the variables it reads', (_, section) => {
    const read = namesRead((env) => section.parse(envReader(env, [])));
    expect([...read].sort()).toEqual(section.variables.map((v) => v.variable).sort());
  });

  it('no variable belongs to two sections or to a section and the platform', () => {
    const platform = namesRead((env) => loadConfig(env));
    const owners = new Map<string, string>();
    for (const section of sections) {
      for (const { variable } of section.variables) {
        expect([variable, platform.has(variable) || owners.has(variable)]).toEqual([variable, false]);
        owners.set(variable, section.title);
      }
    }
  });

  it('loadAppConfig reports a section’s problems with the platform’s, in one error', () => {
    expect(() => loadAppConfig({ PORT: 'http', VOICE_CLONES_PER_TENANT: '0', DASHBOARD_LOGIN_QUEUE: 'x' })).toThrow(
      /PORT must be an integer[\s\S]*VOICE_CLONES_PER_TENANT must be an integer[\s\S]*DASHBOARD_LOGIN_QUEUE must be an integer/,
    );
  });
});
