/** Writes docs/events.md from the event catalog: `npm run docs:events`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { eventCatalog } from '../app.module';
import { renderEventsMarkdown } from '../catalog/events-doc';

export const EVENTS_DOC_PATH = 'docs/events.md';

/** Returns the absolute path written. */
export function writeEventsDoc(root: string = process.cwd()): string {
  const file = resolve(root, EVENTS_DOC_PATH);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderEventsMarkdown(eventCatalog));
  return file;
}

if (require.main === module) {
  process.stdout.write(`wrote ${writeEventsDoc()}\n`);
}
