// The sandbox's entry point, in JavaScript so that it can turn tsx on to load this package's TypeScript and
// the extractor asked for, then off before extracting. While on, tsx rewrites every module loaded, with a
// source map, and Node parses the maps libraries ship: pdf.js, loaded only once a PDF is opened, cost every
// child about a second and 300 MB that way, for stack traces nobody reads (only messages leave the child).
import { register } from 'tsx/esm/api';

// The worker that started this process died (SIGKILL, OOM): stop at once, with every tool this process started
// (it leads its own process group), instead of working for nobody. The channel closing says so; the parent
// pid changing is the belt for when the channel is not noticed.
const parent = process.ppid;
const orphaned = () => {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } finally {
    process.exit(75);
  }
};
process.on('disconnect', orphaned);
setInterval(() => process.ppid !== parent && orphaned(), 250).unref();

const unregister = register();
const { prepareExtraction } = await import('./child.ts');
const extraction = await prepareExtraction(process.argv[2]);
await unregister();
process.setSourceMapsEnabled(false);

extraction().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(70);
  },
);
