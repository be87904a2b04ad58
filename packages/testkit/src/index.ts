export { startTestStack, type TestStack, type Tenant, type StorageDriver } from './test-stack.ts';
export { makePdf } from './fixtures.ts';
export { startHttpServer, type TestHttpServer } from './http-server.ts';
export { spawnService, waitUntil, type ServiceProcess } from './processes.ts';
export { imageHeavyPdf } from './fixtures.ts';
export { noise, RECORDINGS, sceneVideo, speechAudio, type Recording } from './media-fixtures.ts';
export { sendJson, waitForStatus } from './requests.ts';
