/**
 * Node flags every launcher gives the api process (Dockerfile, scripts/start.ts, the testkit's spawnService).
 * A young generation of 3 x 2 MB instead of V8's default 3 x 16 MB. An upload arrives as 64 KB socket buffers
 * that die at once; their memory is released only when the small objects holding them are collected, so a
 * smaller nursery, scavenged more often, frees them sooner. A streamed 1 GB upload then peaks near 175 MB
 * instead of 205-213 MB, at no throughput cost measurable in `npm run bench -- api` or `upload`.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=2'];
