/**
 * The Node client's generated files cannot drift from the service: the event union and openapi.json
 * are rendered again here (the OpenAPI document from a Nest application in preview mode, no
 * database) and compared with the committed files; src/generated/api.ts is checked by the client's
 * own script (openapi-typescript is an ES module: it runs in a child process).
 */
jest.mock('content-disposition', () =>
  process.getBuiltinModule('node:module').createRequire(__filename)('content-disposition'),
);
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventCatalog } from '../../src/app.module';
import { CLIENT_EVENTS_PATH, pascalName } from '../../src/catalog/client-events';
import { CLIENT_OPENAPI_PATH, renderClientInputs } from '../../src/cli/generate-client';
import { WEBHOOK_EVENT_TYPES } from '../../clients/node/src';

const ROOT = resolve(__dirname, '..', '..');
const committed = (path: string): string => readFileSync(resolve(ROOT, path), 'utf8');

describe('the Node client is generated from the service', () => {
  let rendered: Record<string, string>;
  beforeAll(async () => {
    rendered = await renderClientInputs();
  }, 60_000);

  it.each([CLIENT_OPENAPI_PATH, CLIENT_EVENTS_PATH])('%s is up to date (else: npm run client:generate)', (path) => {
    expect(rendered[path] === committed(path)).toBe(true);
  });

  it('src/generated/api.ts is up to date with openapi.json (else: npm run client:generate)', () => {
    expect(() =>
      execFileSync(process.execPath, [resolve(ROOT, 'clients/node/scripts/generate-types.mjs'), '--check'], {
        stdio: 'pipe',
      }),
    ).not.toThrow();
  });

  it('the event union names every catalog type, and the document every public route', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual(eventCatalog.types);
    expect(pascalName('session.opt_out_recording_pending_purge')).toBe('SessionOptOutRecordingPendingPurge');
    const paths = Object.keys((JSON.parse(committed(CLIENT_OPENAPI_PATH)) as { paths: object }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/v1/calls', '/v1/sessions/{id}', '/v1/events', '/v1/campaigns']));
  });
});
