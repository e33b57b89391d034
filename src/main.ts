import { allowsPrivateWebhookUrls, loadAppConfig } from './app.module';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './infra/database/embedded-postgres';
import { createLogger } from './infra/logging/logger';
import { listeningUrl, startupBanner } from './infra/startup/banner';
import { createHttpApp, lifecycle } from './http-app';
import { Drains } from './runtime/workers/drains';
import { configOrExit, run, shutDownOnSignals } from './infra/startup/process-lifecycle';

async function main(): Promise<void> {
  const config = configOrExit(() => loadAppConfig());
  const log = createLogger(config.logLevel).pino;
  let generatedAdminToken: string | null = null;
  if (!config.adminToken) {
    // Printed once, in the banner, so a local user can call the operator API; ADMIN_TOKEN chooses it.
    generatedAdminToken = `adm_${randomBytes(24).toString('base64url')}`;
    config.adminToken = generatedAdminToken;
  }

  let embedded: EmbeddedPostgresHandle | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, (m) => log.debug(m));
    databaseUrl = embedded.url;
  }

  const app = await createHttpApp({ config, databaseUrl });
  await app.listen({ port: config.port, host: config.host });
  const server = app.getHttpServer() as { address(): { address: string; port: number } | string | null };
  const listening = listeningUrl(server.address(), `http://${config.host}:${config.port}`);
  // Plain lines first (the token, the addresses, a warning), then JSON logs from here on.
  const banner = startupBanner({
    generatedAdminToken,
    listeningUrl: listening,
    baseUrl: config.baseUrl,
    webhookAllowPrivateUrls: allowsPrivateWebhookUrls(config),
    logLevel: config.logLevel,
  });
  process.stdout.write(`${banner.join('\n')}\n`);
  log.info({ base_url: config.baseUrl }, `listening on ${listening}`);

  let stopping = false;
  const shutdown = async (signal: string, exitCode = 0): Promise<void> => {
    // Asked again while draining (Ctrl-C, a second SIGTERM, a fatal error): the drain ends now.
    if (stopping) return app.get(Drains).cut();
    stopping = true;
    log.info(`${signal}: draining`);
    lifecycle.start();
    // Calls and rooms carried here end first (DRAIN_TIMEOUT, docs/capacity.md): no new one is taken,
    // and the API keeps serving meanwhile (a room's hang-up), /ready saying 503 draining.
    // SIGTERM only: a deploy's stop. Ctrl-C (SIGINT) and a fatal error stop at once, as before.
    if (signal === 'SIGTERM')
      await app
        .get(Drains)
        .drain()
        .catch((err: unknown) => log.error({ err }, 'draining failed'));
    const force = setTimeout(() => {
      log.error('shutdown took over 30 s after the drain; exiting');
      void (embedded ? embedded.stop() : Promise.resolve()).finally(() => process.exit(1));
    }, 30_000);
    force.unref();
    // Idle keep-alive connections would hold server.close() open; close them as they become idle.
    const server = app.getHttpServer() as { closeIdleConnections?: () => void };
    const idle = setInterval(() => server.closeIdleConnections?.(), 100);
    idle.unref();
    try {
      // Stop taking requests and let in-flight ones finish, then stop the workers, then the database.
      const step = async (name: string, fn: () => Promise<unknown>): Promise<void> => {
        log.debug(`shutdown: ${name}`);
        await fn();
      };
      await step('http', () => app.getHttpAdapter().getInstance().close());
      // Workers stop in the modules' beforeApplicationShutdown hooks, before the pool closes.
      await step('application', () => app.close());
      if (embedded) await step('database', () => embedded.stop());
      log.info('stopped');
      process.exit(exitCode);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  shutDownOnSignals(log, shutdown);
}

run(main);
