import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import getPort from 'get-port';
import { exitOf, type RunningService } from './embedded-postgres.ts';

const INSTALL_HINT =
  'redis-server was not found on PATH. Install it (Debian/Ubuntu: `sudo apt-get install redis-server`, macOS: `brew install redis`) or set REDIS_URL to an existing Redis.';

export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * `redis-server` from PATH on a free loopback port, configured as BullMQ needs it: `noeviction`, so queue
 * keys are never evicted. With `dataDir` it keeps an append-only file there; without, it keeps nothing.
 */
export async function startRedisServer(
  options: {
    dataDir?: string;
    port?: number;
    /** Addresses to listen on besides loopback; the first is the one in `url`. */
    bind?: string[];
  } = {},
): Promise<RunningService> {
  if (!redisServerAvailable()) throw new Error(INSTALL_HINT);
  const port = options.port ?? (await getPort());
  const bind = ['127.0.0.1', ...(options.bind ?? [])];
  const args = ['--port', String(port), '--bind', ...bind, '--maxmemory-policy', 'noeviction', '--save', ''];
  // Protected mode refuses every client off loopback when there is no password; addresses to bind are
  // given only for hosts of a private test network.
  if (options.bind?.length) args.push('--protected-mode', 'no');
  if (options.dataDir) {
    await fs.mkdir(options.dataDir, { recursive: true });
    args.push('--dir', options.dataDir, '--appendonly', 'yes');
  } else {
    args.push('--appendonly', 'no');
  }
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const exited = exitOf(child);
  await waitForPort(port, 10_000);
  return {
    url: `redis://${options.bind?.[0] ?? '127.0.0.1'}:${port}`,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`Nothing listened on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
