import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiKey } from '@quire/api';
import { createDb, createOrganization, findApiKeyByPrefix, insertApiKey, migrateToLatest, type Db } from '@quire/db';
import { loadConfig } from '@quire/config';
import { startEmbeddedStack } from './embedded-stack.ts';
import { nodeProcess, Supervisor } from './supervisor.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
/**
 * Compiled by `npm run build` (`npm start`), this file is dist/start.js and starts the compiled api and worker
 * with plain node; run from its TypeScript (`npm run dev`), it starts theirs through tsx.
 */
const compiled = import.meta.url.endsWith('.js');
const ENTRIES = compiled
  ? { api: path.join(here, 'api.js'), worker: path.join(here, 'worker.js') }
  : { api: path.join(root, 'apps/api/src/main.ts'), worker: path.join(root, 'apps/worker/src/main.ts') };

/** One api and one worker process on the embedded stack (or on whatever the environment names), kept running. */
async function main(): Promise<void> {
  const settings = loadConfig();
  let stopping: Promise<never> | undefined;
  const stop = (code: number, why?: string) =>
    (stopping ??= (async () => {
      if (why) process.stderr.write(`\n${why}\n`);
      process.stderr.write('\nStopping quire...\n');
      await supervisor.stopAll();
      await stack?.stop();
      process.exit(code);
    })());
  const supervisor = new Supervisor({
    maxRestarts: settings.supervisor.maxRestarts,
    windowMs: settings.supervisor.restartWindowMs,
    backoffMs: settings.supervisor.backoffMs,
    log: (line) => process.stderr.write(`[npm start] ${line}\n`),
    onGiveUp: (reason) => void stop(1, `quire gave up: ${reason}`),
  });
  // Whoever sends the signal (a terminal's Ctrl-C, kill, a process manager), the whole tree stops.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));

  let stack: Awaited<ReturnType<typeof startEmbeddedStack>> | undefined;
  try {
    stack = await startEmbeddedStack(supervisor);
    const { config, env } = stack;
    const db = createDb(env.DATABASE_URL!, { poolSize: 2 });
    await migrateToLatest(db);
    const demoKey = await ensureDemoKey(db, path.join(config.dataDir, 'demo-key.json'));
    await db.destroy();

    const node = (name: string, entry: string) =>
      nodeProcess({
        name,
        args: [...(compiled ? [] : ['--import', 'tsx']), entry],
        cwd: root,
        env,
        startTimeoutMs: config.supervisor.startTimeoutMs,
        stopTimeoutMs: 35_000,
      });
    await supervisor.add(node('api', ENTRIES.api));
    await supervisor.add(node('worker', ENTRIES.worker));
    process.stdout.write(
      [
        '',
        `quire is running at ${config.server.publicUrl}`,
        ...stack.started.map((s) => `  started ${s}`),
        `  storage: ${config.storage.driver === 's3' ? `S3 at ${config.storage.endpoint}` : `local disk at ${config.storage.dir}`}`,
        '  api, worker and the servers started here are restarted if they die (see docs/operations.md)',
        '',
        `API reference: ${config.server.publicUrl}/docs`,
        `API key (demo organization): ${demoKey}`,
        `Try: curl -H "x-api-key: ${demoKey}" ${config.server.publicUrl}/api/v1/materials`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  } catch (err) {
    await stop(1, `quire could not start: ${(err as Error).message}`);
  }
}

/** A demo organization and key, made once per data directory and printed at every start. */
async function ensureDemoKey(db: Db, file: string): Promise<string> {
  const saved = await fs.readFile(file, 'utf8').then(
    (raw) => JSON.parse(raw) as { apiKey: string; prefix: string },
    () => undefined,
  );
  if (saved) {
    const row = await findApiKeyByPrefix(db, saved.prefix);
    if (row && !row.revoked_at) return saved.apiKey;
  }
  const org = await createOrganization(db, 'Demo organization');
  const key = generateApiKey();
  await insertApiKey(db, { organizationId: org.id, prefix: key.prefix, keyHash: key.hash });
  await fs.writeFile(file, JSON.stringify({ apiKey: key.apiKey, prefix: key.prefix, organizationId: org.id }), {
    mode: 0o600,
  });
  return key.apiKey;
}

main().catch((err) => {
  process.stderr.write(`quire could not start: ${(err as Error).message}\n`);
  process.exit(1);
});
