import { AppModule, loadAppConfig, runsSipUserAgent } from './app.module';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from './config/config';
import { createLogger } from './infra/logging/logger';
import { configOrExit, run, shutDownOnSignals } from './infra/startup/process-lifecycle';
import { Drains } from './runtime/workers/drains';

/**
 * The media process, `node dist/media.js` (docs/telephony.md, "Media processes"): the SIP user agent,
 * the calls' RTP and the conversations on them, next to API instances on one database, on this
 * machine or another. It boots the same contexts as the API (their workers share the work with the
 * other instances through the database) but serves no HTTP: a call belongs to the process holding its
 * RTP, and this process renews that lease (SIP_MEDIA_LEASE) while it lives. It needs DATABASE_URL (the
 * API instances' database) and SIP_TRUNK_URI or SIP_LISTEN; SIP_MEDIA_PROCESS, which tells API
 * instances to leave the media to processes like this one, is `inline` here whatever the environment says.
 */
async function media(): Promise<void> {
  const config = configOrExit(() => {
    const loaded = loadAppConfig({ ...process.env, SIP_MEDIA_PROCESS: 'inline' });
    if (!loaded.databaseUrl)
      throw new ConfigError(['DATABASE_URL is required: the media process shares the API instances’ database']);
    if (!runsSipUserAgent(loaded))
      throw new ConfigError(['SIP_TRUNK_URI or SIP_LISTEN is required: the media process runs SIP']);
    return loaded;
  });
  const databaseUrl = config.databaseUrl as string;
  const logger = createLogger(config.logLevel);
  const log = logger.pino;
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, databaseUrl }), {
    logger: logger.nest,
  });
  await app.init();
  log.info('media process started');

  let stopping = false;
  const shutdown = async (signal: string, exitCode = 0): Promise<void> => {
    // Asked again while draining (Ctrl-C, a second SIGTERM, a fatal error): the drain ends now.
    if (stopping) return app.get(Drains).cut();
    stopping = true;
    log.info(`${signal}: draining`);
    // Its calls end first (DRAIN_TIMEOUT, docs/capacity.md): no new one is taken meanwhile.
    // SIGTERM only: a deploy's stop. Ctrl-C (SIGINT) and a fatal error stop at once, as before.
    if (signal === 'SIGTERM')
      await app
        .get(Drains)
        .drain()
        .catch((err: unknown) => log.error({ err }, 'draining failed'));
    log.info('ending calls');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      // The user agent ends its calls (BYE) in the telephony module's shutdown hook, after the workers stop.
      await app.close();
      log.info('stopped');
      process.exit(exitCode);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  shutDownOnSignals(log, shutdown);
}

run(media);
