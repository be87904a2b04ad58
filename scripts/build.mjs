// `npm run build`: the api, the worker, its sandbox child and the launchers as plain JavaScript in dist/, so that
// production runs `node dist/<entry>.js` with no TypeScript loader. The workspace packages (@quire/*) are bundled
// in; every npm dependency stays an import of node_modules. In JavaScript so that it runs before anything is built.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.resolve(root, process.argv[2] ?? 'dist');

const entryPoints = {
  api: 'apps/api/src/main.ts',
  worker: 'apps/worker/src/main.ts',
  // Forked by the compiled worker (warm-child.ts finds it beside itself).
  'sandbox-child': 'apps/worker/src/sandbox/child-main.ts',
  start: 'scripts/start.ts',
  migrate: 'scripts/migrate.ts',
};

/** Bare imports other than the workspace's own stay imports, resolved from node_modules at run time. */
const keepDependenciesExternal = {
  name: 'keep-dependencies-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@quire/') ? undefined : { path: args.path, external: true },
    );
  },
};

await fs.rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([name, file]) => [name, path.join(root, file)])),
  outdir,
  bundle: true,
  // Extractors are imported on demand: each stays a chunk of its own, loaded only by a child that needs it.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // All in one folder, so that import.meta.url of any chunk names the folder the entries are in.
  chunkNames: '[name]-[hash]',
  sourcemap: false,
  logLevel: 'warning',
  plugins: [keepDependenciesExternal],
});
// Served by the api's /docs next to its own code.
await fs.cp(path.join(root, 'apps/api/src/routes/docs-assets'), path.join(outdir, 'docs-assets'), { recursive: true });
await fs.writeFile(
  path.join(outdir, 'package.json'),
  JSON.stringify({ type: 'module', private: true }, null, 2) + '\n',
);
