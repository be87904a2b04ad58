import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiKey } from '@quire/api';
import { API_NODE_FLAGS } from '@quire/api/node-flags';
import { createDb, createOrganization, findApiKeyByPrefix, insertApiKey, migrateToLatest, type Db } from '@quire/db';
import { startEmbeddedStack } from './embedded-stack.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One api and one worker process on the embedded stack (or on whatever the environment names). */
async function main(): Promise<void> {
  const stack = await startEmbeddedStack();
  const { config, env } = stack;
  const db = createDb(env.DATABASE_URL!, { poolSize: 2 });
  await migrateToLatest(db);
  const demoKey = await ensureDemoKey(db, path.join(config.dataDir, 'demo-key.json'));
  await db.destroy();

  const children = [
    startProcess('api', 'apps/api/src/main.ts', env),
    startProcess('worker', 'apps/worker/src/main.ts', env),
  ];
  const ready = await waitForReady(`http://127.0.0.1:${config.server.port}/readyz`, 30_000);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('\nStopping quire...\n');
    await Promise.all(children.map((child) => stopProcess(child)));
    await stack.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  for (const child of children) child.once('exit', (code) => !stopping && void stop(code ?? 1));

  if (!ready) {
    process.stderr.write('The api did not become ready within 30 s; see its log above.\n');
    return stop(1);
  }
  process.stdout.write(
    [
      '',
      `quire is running at ${config.server.publicUrl}`,
      ...stack.started.map((s) => `  started ${s}`),
      `  storage: ${config.storage.driver === 's3' ? `S3 at ${config.storage.endpoint}` : `local disk at ${config.storage.dir}`}`,
      '',
      `API reference: ${config.server.publicUrl}/docs`,
      `API key (demo organization): ${demoKey}`,
      `Try: curl -H "x-api-key: ${demoKey}" ${config.server.publicUrl}/api/v1/materials`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

function startProcess(name: string, entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [...(name === 'api' ? API_NODE_FLAGS : []), '--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('error', (err) => process.stderr.write(`${name} failed to start: ${err.message}\n`));
  return child;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 35_000);
  await exited;
  clearTimeout(timer);
}

async function waitForReady(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** A demo organization and key, made once per data directory and printed at every start. */
async function ensureDemoKey(db: Db, file: string): Promise<string> {
  const saved = await fs.readFile(file, 'utf8').then((raw) => JSON.parse(raw) as { apiKey: string; prefix: string }, () => undefined);
  if (saved) {
    const row = await findApiKeyByPrefix(db, saved.prefix);
    if (row && !row.revoked_at) return saved.apiKey;
  }
  const org = await createOrganization(db, 'Demo organization');
  const key = generateApiKey();
  await insertApiKey(db, { organizationId: org.id, prefix: key.prefix, keyHash: key.hash });
  await fs.writeFile(file, JSON.stringify({ apiKey: key.apiKey, prefix: key.prefix, organizationId: org.id }), { mode: 0o600 });
  return key.apiKey;
}

main().catch((err) => {
  process.stderr.write(`quire could not start: ${(err as Error).message}\n`);
  process.exit(1);
});
