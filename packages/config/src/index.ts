export { loadConfig, type Config } from './config.ts';
