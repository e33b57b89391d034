import type { Logger } from 'pino';
import type { AppConfig } from '../../config/config';
import { ConfigError } from '../../config/config';
import { boundHeapGrowth } from './heap-growth';

/**
 * What the service (`dist/main.js`) and the media process (`dist/media.js`) do alike around their
 * own start and stop: V8's heap growth is bounded (decision 177), a configuration refused exits 78
 * (EX_CONFIG) with its message, and SIGTERM, SIGINT and an error no worker caught lead to the same
 * orderly shutdown.
 */

/** The configuration, or the process exits 78 with what is wrong (nothing else is started). */
export function configOrExit(load: () => AppConfig): AppConfig {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}

/**
 * SIGTERM and SIGINT call `shutdown` (exit 0); so does an error that reached the process, logged as
 * fatal, with exit 1. That is the last line of defence: workers catch their own faults (a delivery, a
 * timer, a batch fails on its own and is retried); an error that still gets here is a bug, the
 * process state is unknown, so the process drains and exits non-zero (a supervisor restarts it;
 * nothing accepted is lost, everything is in the database).
 */
export function shutDownOnSignals(log: Logger, shutdown: (reason: string, exitCode?: number) => Promise<void>): void {
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  const fatal = (kind: string) => (err: unknown) => {
    log.fatal({ err }, `${kind}: ${err instanceof Error ? err.message : String(err)}`);
    void shutdown(kind, 1);
  };
  process.on('unhandledRejection', fatal('unhandledRejection'));
  process.on('uncaughtException', fatal('uncaughtException'));
}

/** Started as a script, its heap growth bounded first: a failure to start is one line on stderr and exit 1. */
export function run(start: () => Promise<void>): void {
  boundHeapGrowth();
  start().catch((err: unknown) => {
    process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
