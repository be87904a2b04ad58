export { FetchError, type FetchErrorCode } from './fetch-error.ts';
export { fetchToFile, type Fetched, type FetchOptions } from './fetch-to-file.ts';
