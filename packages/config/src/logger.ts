import { pino, type DestinationStream, type Logger } from 'pino';
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

/**
 * The process's root logger: JSON lines, or pino-pretty's colours when developing at a terminal (never in
 * production, where pino-pretty, a dev dependency, is not loaded).
 */
export function createLogger(config: Config, name: string, destination?: DestinationStream): Logger {
  const options = { name, level: config.LOG_LEVEL, redact: REDACT };
  if (destination) return pino(options, destination);
  if (config.NODE_ENV === 'development' && process.stdout.isTTY) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  return pino(options);
}
