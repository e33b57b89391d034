/**
 * `npm run client:generate`: writes the Node client's inputs from the service itself, with no
 * database: clients/node/openapi.json (the document served at /openapi.json, from a Nest application
 * created with `preview: true`) and clients/node/src/generated/events.ts (the catalog's event union).
 * The client's own script then turns openapi.json into src/generated/api.ts (openapi-typescript).
 * `--check` writes nothing and exits 1 when a committed file differs (the drift check).
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppModule, eventCatalog, loadAppConfig } from '../app.module';
import { CLIENT_EVENTS_PATH, renderClientEventTypes } from '../catalog/client-events';
import { buildOpenApiDocument } from '../openapi-document';

export const CLIENT_OPENAPI_PATH = 'clients/node/openapi.json';

/** The OpenAPI document as /openapi.json serves it, rendered as the committed file. */
export async function renderOpenApiJson(): Promise<string> {
  const config = loadAppConfig({ LOG_LEVEL: 'silent', ADMIN_TOKEN: 'adm_preview_only' });
  // preview: modules and controllers are scanned but no provider is built, so nothing connects.
  const app = await NestFactory.create(
    AppModule.forRoot({ config, databaseUrl: 'postgres://preview.invalid/none', startWorkers: false }),
    new FastifyAdapter(),
    { preview: true, logger: false, abortOnError: false },
  );
  try {
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close().catch(() => undefined);
  }
}

/** Every generated input of the client, by path from the repository root. */
export async function renderClientInputs(): Promise<Record<string, string>> {
  return {
    [CLIENT_OPENAPI_PATH]: await renderOpenApiJson(),
    [CLIENT_EVENTS_PATH]: renderClientEventTypes(eventCatalog),
  };
}

/** Writes them (or, with `check`, only compares); returns the paths that differed. */
export async function generateClientInputs(root: string, check: boolean): Promise<string[]> {
  const drifted: string[] = [];
  for (const [path, text] of Object.entries(await renderClientInputs())) {
    const file = resolve(root, path);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (current === text) continue;
    drifted.push(path);
    if (check) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return drifted;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  generateClientInputs(process.cwd(), check)
    .then((drifted) => {
      for (const path of drifted) process.stdout.write(`${check ? 'out of date' : 'wrote'}: ${path}\n`);
      if (check && drifted.length > 0) {
        process.stderr.write('The client is out of date with the service: run `npm run client:generate`.\n');
        process.exit(1);
      }
      process.exit(0);
    })
    .catch((err: unknown) => {
      process.stderr.write(
        `client generation failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    });
}
