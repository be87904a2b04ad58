// The sandbox's entry point in development and tests, in JavaScript so that it can turn tsx on to load this
// package's TypeScript and every extractor module, then off before serving jobs. While on, tsx rewrites every
// module loaded, with a source map, and Node parses the maps libraries ship: pdf.js, loaded only once a PDF is
// opened, cost every child about a second and 300 MB that way, for stack traces nobody reads (only messages
// leave the child). In production the worker forks the compiled `sandbox-child.js` with plain node instead.
import { register } from 'tsx/esm/api';
import { watchParent } from './orphan-watch.mjs';

watchParent();
const unregister = register();
const { preloadExtractors, serveJobs } = await import('./child.ts');
const settings = JSON.parse(process.argv[2]);
await preloadExtractors(settings);
await unregister();
process.setSourceMapsEnabled(false);
serveJobs(settings);
