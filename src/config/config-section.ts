import type { EnvReader } from './env-reader';

/** One row of a section's table in docs/configuration.md (Markdown allowed in each cell). */
export interface SettingDoc {
  readonly variable: string;
  readonly default: string;
  readonly meaning: string;
}

/**
 * A bounded context's settings: the variables it reads, how, and their documentation. A context
 * declares its section beside its module (`src/<context>/<context>.config.ts`) and registers it as
 * `settings` of its `BoundedContext`; `loadAppConfig()` (app.module.ts) parses every registered
 * section with the platform's own settings, and `npm run docs:generate` writes the sections' tables
 * into docs/configuration.md. A context reads its values with `settingsOf(config, section)`.
 */
export interface ConfigSection<T> {
  /** The heading of its table in docs/configuration.md. */
  readonly title: string;
  /** Markdown shown between the heading and the table. */
  readonly intro?: string;
  /** Every variable `parse` reads, in the order of the table (a test holds the two together). */
  readonly variables: readonly SettingDoc[];
  /** Reads the section's values; problems go through the reader, reported with all others at once. */
  readonly parse: (env: EnvReader) => T;
}

export function defineSettings<T>(section: ConfigSection<T>): ConfigSection<T> {
  return section;
}
