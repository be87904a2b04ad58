export { loadConfig, type Config } from './config.ts';
export { createLogger } from './logger.ts';
