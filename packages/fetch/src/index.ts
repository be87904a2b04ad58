export { FetchError, RefusedTargetError, type FetchErrorCode } from './fetch-error.ts';
export { fetchToFile, type Fetched, type FetchOptions } from './fetch-to-file.ts';
export { guardedRequest, type GuardedRequestOptions } from './guarded-request.ts';
