/**
 * `npm run bench -- [name] [options]`: runs one benchmark with its options, or all of them one after the
 * other. A benchmark is a module exporting `run(args)`; add one by listing it here.
 */
const BENCHMARKS: Record<string, () => Promise<{ run(args: string[]): Promise<void> }>> = {
  analytics: () => import('./analytics.ts'),
  wait: () => import('./wait.ts'),
  upload: () => import('./upload.ts'),
  api: () => import('./api.ts'),
  pdf: () => import('./pdf.ts'),
  'worker-scaling': () => import('./worker-scaling.ts'),
  html: () => import('./html.ts'),
  search: () => import('./search.ts'),
  'search-articles': () => import('./search-articles.ts'),
  ocr: () => import('./ocr.ts'),
  startup: () => import('./startup.ts'),
  media: () => import('./media.ts'),
  fairness: () => import('./fairness.ts'),
  publish: () => import('./publish.ts'),
  'text-pages': () => import('./text-pages.ts'),
  structure: () => import('./structure.ts'),
  office: () => import('./office.ts'),
  'office-bugs': () => import('./office-bugs.ts'),
};

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    for (const load of Object.values(BENCHMARKS)) await (await load()).run([]);
    return 0;
  }
  const load = BENCHMARKS[name];
  if (!load) {
    console.error(`unknown benchmark "${name}"; available: ${Object.keys(BENCHMARKS).join(', ')}`);
    return 2;
  }
  await (await load()).run(args);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
