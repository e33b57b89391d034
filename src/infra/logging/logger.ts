import type { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * Nest's start-up chatter: a line per module wired and per route mapped (over 100 lines). Logged at
 * debug, so that at `info` the start banner is not buried (LOG_LEVEL=debug shows them).
 */
const NEST_STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** pino, JSON lines on stdout; Nest's own messages go through it too. Secrets are never passed to it. */
export function createLogger(level: string): { pino: Logger; nest: LoggerService } {
  const logger = pino({
    level,
    base: { service: 'voice-agent-platform' },
    redact: { paths: ['*.api_key', '*.secret', '*.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  });
  const format = (message: unknown, context?: unknown): [Record<string, unknown>, string] => [
    typeof context === 'string' ? { context } : {},
    message instanceof Error ? message.message : String(message),
  ];
  const nest: LoggerService = {
    log: (m, c) => {
      if (typeof c === 'string' && NEST_STARTUP_CONTEXTS.has(c)) logger.debug(...format(m, c));
      else logger.info(...format(m, c));
    },
    error: (m, ...rest) => logger.error(...format(m, rest[rest.length - 1])),
    warn: (m, c) => logger.warn(...format(m, c)),
    debug: (m, c) => logger.debug(...format(m, c)),
    verbose: (m, c) => logger.trace(...format(m, c)),
    fatal: (m, c) => logger.fatal(...format(m, c)),
  };
  return { pino: logger, nest };
}
