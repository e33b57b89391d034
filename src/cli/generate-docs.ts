/**
 * Regenerates every file generated from the registered contexts (`npm run docs:generate`):
 * docs/events.md, the event-type snapshot and the per-context settings of docs/configuration.md.
 * Tests fail when any of them differs from what this writes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { contextSettings, eventCatalog } from '../app.module';
import { CONFIGURATION_DOC_PATH, withGeneratedSettings } from '../config/settings-doc';
import { EVENT_TYPES_SNAPSHOT_PATH, renderEventTypesSnapshot } from '../catalog/event-types-snapshot';
import { writeEventsDoc } from './generate-events-doc';

function write(root: string, path: string, text: string): string {
  const file = resolve(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** Returns the absolute paths written. */
export function writeGeneratedDocs(root: string = process.cwd()): string[] {
  const configuration = readFileSync(resolve(root, CONFIGURATION_DOC_PATH), 'utf8');
  return [
    writeEventsDoc(root),
    write(root, EVENT_TYPES_SNAPSHOT_PATH, renderEventTypesSnapshot(eventCatalog)),
    write(root, CONFIGURATION_DOC_PATH, withGeneratedSettings(configuration, contextSettings())),
  ];
}

if (require.main === module) {
  for (const file of writeGeneratedDocs()) process.stdout.write(`wrote ${file}\n`);
}
