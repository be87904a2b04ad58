export { createApiContext, type ApiContext } from './context.ts';
export { createApp } from './app.ts';
export { startServer, type RunningServer } from './server.ts';
export { generateApiKey, hashApiKey } from './auth/api-key.ts';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.ts';
export { API_KEY_SCHEME } from './openapi/common.ts';
export { documentedRouteMatcher } from './openapi/path-matcher.ts';
export {
  buildGroupReport,
  REPORT_NAMES,
  type ReportName,
  type ReportSource,
} from './services/group-analytics.service.ts';
export { recordUsageEvents } from './services/usage-events.service.ts';
export { parseEventBatch, type UsageEventInput } from './routes/usage-events.schema.ts';
export { recordApiCalls } from './middleware/record-api-calls.ts';
export { ApiCallRecorder } from './usage/api-call-recorder.ts';
