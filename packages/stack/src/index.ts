export { startEmbeddedPostgres, type RunningService } from './embedded-postgres.ts';
export { startRedisServer, redisServerAvailable, waitForPort } from './redis-server.ts';
export { startS3Server } from './s3-server.ts';
