import { pino, type DestinationStream, type Logger, type LoggerOptions as PinoOptions } from 'pino';
import type { Config } from './config.ts';

/** Wherever they appear in a log object, these never reach the output. */
const REDACT = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
];

export interface LoggerOptions {
  /** Where lines go instead of stdout (tests read them). */
  destination?: DestinationStream;
  /** Fields added to every line, e.g. the id of the request being served. */
  mixin?: PinoOptions['mixin'];
}

/**
 * The process's root logger: JSON lines, or pino-pretty's colours when developing at a terminal (never in
 * production, where pino-pretty, a dev dependency, is not loaded).
 */
export function createLogger(config: Config, name: string, { destination, mixin }: LoggerOptions = {}): Logger {
  const options = { name, level: config.logLevel, redact: REDACT, ...(mixin ? { mixin } : {}) };
  if (destination) return pino(options, destination);
  if (config.nodeEnv === 'development' && process.stdout.isTTY) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
    });
  }
  return pino(options);
}
