// The sandbox's entry point in production: compiled to `sandbox-child.js` beside the worker, run by plain node.
import type { ExtractorSettings } from '@quire/extract';
import { preloadExtractors, serveJobs } from './child.ts';
import { watchParent } from './orphan-watch.mjs';

watchParent();
const settings = JSON.parse(process.argv[2]!) as ExtractorSettings;
await preloadExtractors(settings);
serveJobs(settings);
