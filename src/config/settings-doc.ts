/**
 * The contexts' settings in docs/configuration.md: each registered section's table, written between
 * two markers by `npm run docs:generate` (src/cli/generate-docs.ts); a unit test fails when the file
 * differs from what this renders (test/unit/configuration-doc.spec.ts).
 */
import type { ConfigSection } from './config-section';

export const CONFIGURATION_DOC_PATH = 'docs/configuration.md';
const BEGIN =
  "<!-- generated: the contexts' settings (npm run docs:generate); edit src/<context>/<context>.config.ts -->";
const END = '<!-- end of the generated settings -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The sections' tables, as Markdown (kept out of Prettier's reach, so written as they will stay). */
export function renderSettings(sections: readonly ConfigSection<unknown>[]): string {
  const parts = sections.map((section) =>
    [
      `### ${section.title}`,
      '',
      ...(section.intro ? [section.intro, ''] : []),
      '| variable | default | meaning and accepted values |',
      '| --- | --- | --- |',
      ...section.variables.map((v) => `| \`${v.variable}\` | ${cell(v.default)} | ${cell(v.meaning)} |`),
    ].join('\n'),
  );
  return [
    BEGIN,
    '<!-- prettier-ignore-start -->',
    '',
    ...parts.flatMap((p) => [p, '']),
    '<!-- prettier-ignore-end -->',
    END,
  ].join('\n');
}

/** The document with its generated part replaced; an error if its markers are missing. */
export function withGeneratedSettings(doc: string, sections: readonly ConfigSection<unknown>[]): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${CONFIGURATION_DOC_PATH} has lost its markers: ${BEGIN} … ${END}`);
  return doc.slice(0, begin) + renderSettings(sections) + doc.slice(end + END.length);
}
