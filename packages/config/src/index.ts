export { loadConfig, type Config } from './config.ts';
export { createLogger, type LoggerOptions } from './logger.ts';
