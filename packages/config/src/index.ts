export {
  loadConfig,
  loadServiceConfig,
  requireServices,
  type Config,
  type ServiceConfig,
  type StorageConfig,
} from './config.ts';
export { createLogger, type LoggerOptions } from './logger.ts';
