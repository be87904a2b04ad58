// The sandbox's entry point in production: compiled to `sandbox-child.js` beside the worker, run by plain node.
import { preloadExtractors, serveJobs } from './child.ts';
import { watchParent } from './orphan-watch.mjs';

watchParent();
await preloadExtractors(JSON.parse(process.argv[2]!));
serveJobs();
