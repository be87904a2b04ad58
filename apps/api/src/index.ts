export { createApiContext, type ApiContext } from './context.ts';
export { createApp } from './app.ts';
export { startServer, type RunningServer } from './server.ts';
export { generateApiKey, hashApiKey } from './auth/api-key.ts';
