import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule, loadAppConfig } from '../app.module';
import { ConfigError } from '../config/config';
import { startEmbeddedPostgres } from '../infra/database/embedded-postgres';
import { ProjectionsService } from '../runtime/processing/processors.service';

/**
 * `npm run replay [-- --projection NAME]`: rebuilds read models from the event history, the same
 * operation as POST /admin/v1/projections/rebuild. Safe while the service runs.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--projection');
  const name = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && !name) throw new Error('--projection needs a name');
  const config = loadAppConfig();
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(config.dataDir);
  const databaseUrl = config.databaseUrl ?? embedded?.url ?? '';
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config, databaseUrl, startWorkers: false }),
    {
      logger: ['error', 'warn'],
    },
  );
  try {
    const projections = app.get(ProjectionsService);
    if (name && !projections.names().includes(name)) {
      throw new Error(`unknown projection "${name}"; known: ${projections.names().join(', ')}`);
    }
    for (const result of await projections.rebuild(name)) {
      process.stdout.write(`rebuilt ${result.projection} from ${result.events} events\n`);
    }
  } finally {
    await app.close();
    if (embedded?.startedHere) await embedded.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : `replay failed: ${err instanceof Error ? err.message : String(err)}`}\n`,
  );
  process.exit(1);
});
