import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnLogged, spawnService, waitForOk, waitUntil, type ServiceProcess } from './processes.ts';
import type { StoresReady, StoresSettings } from './fleet-stores.ts';

const execFileAsync = promisify(execFile);
const STORES_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fleet-stores.ts');
/** Every namespace, link and folder of a fleet is named after the test process that made it. */
const PREFIX = 'quire-t';

export type HostName = 'stores' | 'api' | 'worker1' | 'worker2';
export const HOST_NAMES: HostName[] = ['stores', 'api', 'worker1', 'worker2'];
/** A host's link to the switch, or the api's own link to Redis on the stores host. */
export type LinkName = HostName | 'api-redis';

export interface FleetHost {
  name: HostName;
  /** The network namespace the host's processes run in. */
  netns: string;
  /** The host's address on the fleet's network. */
  address: string;
}

export interface Fleet {
  hosts: Record<HostName, FleetHost>;
  /** Postgres as the api and workers (and this test process) reach it. */
  databaseUrl: string;
  /** The api's address for clients (this test process). */
  apiUrl: string;
  /** The environment of an api or worker process on `host`, before per-test settings. */
  envFor(host: HostName): Record<string, string>;
  startApi(settings?: Record<string, string>): Promise<ServiceProcess>;
  startWorker(host: 'worker1' | 'worker2', settings?: Record<string, string>): Promise<ServiceProcess>;
  /** Takes the link down at the switch's end: packets vanish, nothing is refused (see docs/operations.md). */
  cut(link: LinkName): Promise<void>;
  restore(link: LinkName): Promise<void>;
  /** Stops (SIGSTOP) or continues (SIGCONT) every process of the host, as a hung machine would. */
  pause(host: HostName): Promise<void>;
  resume(host: HostName): Promise<void>;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  /** Every link up, every host running, Postgres started: what each test may assume when it begins. */
  heal(): Promise<void>;
  /** Kills every process of every host and removes the namespaces and files; safe to call twice. */
  teardown(): Promise<void>;
}

/**
 * Why a fleet cannot be made here, or undefined when it can: it needs Linux, root and `ip` (iproute2), and
 * tries making (and removing) one namespace.
 */
export function fleetUnavailableReason(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'making network namespaces needs root (run the tests as root, as CI does)';
  if (spawnSync('ip', ['-V'], { stdio: 'ignore' }).status !== 0) return 'the `ip` command (iproute2) is not installed';
  const probe = `${PREFIX}${process.pid}-probe`;
  const made = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (made.status !== 0) return `\`ip netns add\` failed: ${made.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe], { stdio: 'ignore' });
  return undefined;
}

async function ip(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('ip', args, { timeout: 10_000 });
  return stdout;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pidsIn(netns: string): Promise<number[]> {
  const out = await ip('netns', 'pids', netns).catch(() => '');
  return out.split('\n').filter(Boolean).map(Number);
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  }
}

/** Kills what still runs in the namespace (its processes are all a fleet's), then removes it. */
async function removeNamespace(netns: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (let pids = await pidsIn(netns); pids.length > 0 && Date.now() < deadline; pids = await pidsIn(netns)) {
    signal(pids, 'SIGCONT');
    signal(pids, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
  await ip('netns', 'del', netns).catch(() => {});
}

/** Namespaces and folders left by a fleet whose test process died without tearing it down. */
export async function removeStaleFleets(): Promise<string[]> {
  const removed: string[] = [];
  const list = await ip('netns', 'list').catch(() => '');
  for (const line of list.split('\n')) {
    const name = line.split(' ')[0]!;
    const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(name);
    if (!owner || isAlive(Number(owner[1]))) continue;
    await removeNamespace(name);
    removed.push(name);
  }
  for (const entry of await fs.readdir(os.tmpdir())) {
    const owner = new RegExp(`^${PREFIX}(\\d+)-fleet-`).exec(entry);
    if (owner && !isAlive(Number(owner[1])))
      await fs.rm(path.join(os.tmpdir(), entry), { recursive: true, force: true });
  }
  return removed;
}

/** A /24 of 10.231.0.0/16 that no interface of this machine uses yet. */
async function freeSubnet(): Promise<number> {
  const used = await ip('-o', '-4', 'addr', 'show');
  for (let i = 0; i < 230; i++) {
    const candidate = 20 + ((process.pid + i) % 230);
    if (!used.includes(`10.231.${candidate}.`)) return candidate;
  }
  throw new Error('no free 10.231.x.0/24 for a test fleet');
}

/**
 * Four hosts made of network namespaces, as a fleet spreads over machines: `stores` (Postgres, Redis, the S3
 * server), `api`, `worker1` and `worker2`, each with one link to a switch (a bridge in a fifth namespace).
 * This test process reaches the switch by a link of its own, and the api has a second, direct link to the
 * stores host that it reaches Redis by, so Redis can be cut off from the api alone. The addresses are a
 * private /24 that exists only on these links; nothing is routed anywhere else (no default route).
 */
export async function startFleet(options: { logLevel?: string } = {}): Promise<Fleet> {
  await removeStaleFleets();
  const tag = `${PREFIX}${process.pid}-${Math.random().toString(36).slice(2, 6)}-`;
  const net = await freeSubnet();
  const addr = (n: number) => `10.231.${net}.${n}`;
  const namespaces = [...HOST_NAMES, 'switch'].map((h) => `${tag}${h}`);
  const hosts = Object.fromEntries(
    HOST_NAMES.map((name, i) => [name, { name, netns: `${tag}${name}`, address: addr(i + 1) }]),
  ) as Record<HostName, FleetHost>;
  const switchNs = `${tag}switch`;
  // Interface names are limited to 15 characters; this one lives in this process's namespace.
  const testLink = `qt${process.pid}`.slice(0, 15);
  const redisForApi = { stores: addr(129), api: addr(130) };
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-fleet-`));
  // Postgres runs as its own user when we are root.
  await fs.chmod(dataDir, 0o777);

  const processes: ServiceProcess[] = [];
  let stores: ServiceProcess | undefined;
  let tornDown = false;

  const teardown = async () => {
    if (tornDown) return;
    tornDown = true;
    // The stores host first, asked nicely, so Postgres shuts down cleanly.
    if (stores && stores.child.exitCode === null) {
      signal(await pidsIn(hosts.stores.netns), 'SIGCONT');
      stores.child.kill('SIGTERM');
      await Promise.race([stores.exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    for (const ns of namespaces) await removeNamespace(ns);
    await ip('link', 'del', testLink).catch(() => {});
    await fs.rm(dataDir, { recursive: true, force: true });
  };

  try {
    for (const ns of namespaces) {
      await ip('netns', 'add', ns);
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
    await ip('-n', switchNs, 'link', 'add', 'br0', 'type', 'bridge');
    await ip('-n', switchNs, 'link', 'set', 'br0', 'up');
    for (const host of Object.values(hosts)) {
      await ip(
        '-n',
        switchNs,
        'link',
        'add',
        `p-${host.name}`,
        'type',
        'veth',
        'peer',
        'name',
        'eth0',
        'netns',
        host.netns,
      );
      await ip('-n', switchNs, 'link', 'set', `p-${host.name}`, 'master', 'br0', 'up');
      await ip('-n', host.netns, 'addr', 'add', `${host.address}/25`, 'dev', 'eth0');
      await ip('-n', host.netns, 'link', 'set', 'eth0', 'up');
    }
    await ip('link', 'add', testLink, 'type', 'veth', 'peer', 'name', 'p-test', 'netns', switchNs);
    await ip('-n', switchNs, 'link', 'set', 'p-test', 'master', 'br0', 'up');
    await ip('addr', 'add', `${addr(126)}/25`, 'dev', testLink);
    await ip('link', 'set', testLink, 'up');
    await ip(
      '-n',
      hosts.api.netns,
      'link',
      'add',
      'redis0',
      'type',
      'veth',
      'peer',
      'name',
      'api0',
      'netns',
      hosts.stores.netns,
    );
    await ip('-n', hosts.api.netns, 'addr', 'add', `${redisForApi.api}/30`, 'dev', 'redis0');
    await ip('-n', hosts.stores.netns, 'addr', 'add', `${redisForApi.stores}/30`, 'dev', 'api0');
    await ip('-n', hosts.api.netns, 'link', 'set', 'redis0', 'up');
    await ip('-n', hosts.stores.netns, 'link', 'set', 'api0', 'up');

    const settings: StoresSettings = {
      dataDir,
      addresses: [hosts.stores.address, redisForApi.stores],
      clientNetwork: `10.231.${net}.0/24`,
      // Each host has ports of its own; Postgres's number must still differ from any other on this machine,
      // whose lock files share the file system.
      ports: { postgres: 20_000 + (process.pid % 20_000), redis: 6379, s3: 9000 },
      bucket: 'fleet',
    };
    stores = spawnLogged(
      [process.execPath, '--import', 'tsx', STORES_ENTRY, JSON.stringify(settings)],
      {},
      {
        netns: hosts.stores.netns,
        stdin: 'pipe',
      },
    );
    processes.push(stores);
    const storesProcess = stores;
    let ready: StoresReady | undefined;
    await waitUntil(
      () => {
        if (storesProcess.child.exitCode !== null)
          throw new Error(`the stores host failed:\n${storesProcess.output()}`);
        const line = storesProcess
          .output()
          .split('\n')
          .find((l) => l.startsWith('{"ready"'));
        if (line) ready = (JSON.parse(line) as { ready: StoresReady }).ready;
        return ready !== undefined;
      },
      60_000,
      'Postgres, Redis and the S3 server on the stores host',
    );
    const { databaseUrl, redisUrls, s3Endpoint } = ready!;
    const apiUrl = `http://${hosts.api.address}:3000`;

    let commands = 0;
    const command = async (line: string) => {
      const answer = commands++;
      storesProcess.child.stdin!.write(`${line}\n`);
      // The stores host answers every command with one JSON line, in order.
      let reply: { done?: string; failed?: string; error?: string } | undefined;
      await waitUntil(
        () => {
          const replies = storesProcess
            .output()
            .split('\n')
            .filter((l) => l.startsWith('{"done"') || l.startsWith('{"failed"'));
          reply = replies[answer] ? JSON.parse(replies[answer]) : undefined;
          return reply !== undefined;
        },
        60_000,
        `the stores host to ${line}`,
      );
      if (reply!.failed) throw new Error(`the stores host could not ${line}: ${reply!.error}`);
    };
    let postgresStopped = false;
    const cutLinks = new Set<LinkName>();
    const paused = new Set<HostName>();

    const envFor = (host: HostName): Record<string, string> => ({
      NODE_ENV: 'test',
      LOG_LEVEL: options.logLevel ?? 'info',
      HOST: hosts[host].address,
      PORT: '3000',
      PUBLIC_URL: apiUrl,
      WORKER_METRICS_PORT: '9464',
      DATABASE_URL: databaseUrl,
      REDIS_URL: host === 'api' ? redisUrls[1]! : redisUrls[0]!,
      QUEUE_PREFIX: 'fleet',
      S3_ENDPOINT: new URL(s3Endpoint).hostname,
      S3_PORT: new URL(s3Endpoint).port,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      S3_BUCKET: settings.bucket,
      STORAGE_KEY_PREFIX: 'fleet/',
      RATE_LIMIT_PER_IP: '1000000',
      RATE_LIMIT_PER_KEY: '1000000',
    });

    const linkEnd = (link: LinkName): [string, string] =>
      link === 'api-redis' ? [hosts.stores.netns, 'api0'] : [switchNs, `p-${link}`];

    const fleet: Fleet = {
      hosts,
      databaseUrl,
      apiUrl,
      envFor,
      async startApi(extra = {}) {
        const api = spawnService('api', { ...envFor('api'), ...extra }, { netns: hosts.api.netns });
        processes.push(api);
        await waitForOk(`${apiUrl}/readyz`, 60_000, `the api on its host:\n${api.output()}`).catch((err: Error) => {
          throw new Error(`${err.message}\n${api.output().slice(-3000)}`);
        });
        return api;
      },
      async startWorker(host, extra = {}) {
        const worker = spawnService('worker', { ...envFor(host), ...extra }, { netns: hosts[host].netns });
        processes.push(worker);
        await waitUntil(
          () => {
            if (worker.child.exitCode !== null) throw new Error(`the worker on ${host} exited:\n${worker.output()}`);
            return worker.output().includes('worker started');
          },
          60_000,
          `the worker on ${host} to start`,
        );
        return worker;
      },
      async cut(link) {
        const [ns, dev] = linkEnd(link);
        await ip('-n', ns, 'link', 'set', dev, 'down');
        cutLinks.add(link);
      },
      async restore(link) {
        const [ns, dev] = linkEnd(link);
        await ip('-n', ns, 'link', 'set', dev, 'up');
        cutLinks.delete(link);
      },
      async pause(host) {
        signal(await pidsIn(hosts[host].netns), 'SIGSTOP');
        paused.add(host);
      },
      async resume(host) {
        signal(await pidsIn(hosts[host].netns), 'SIGCONT');
        paused.delete(host);
      },
      async stopPostgres() {
        await command('stop-postgres');
        postgresStopped = true;
      },
      async startPostgres() {
        await command('start-postgres');
        postgresStopped = false;
      },
      async heal() {
        for (const link of [...cutLinks]) await fleet.restore(link);
        for (const host of [...paused]) await fleet.resume(host);
        if (postgresStopped) await fleet.startPostgres();
      },
      teardown,
    };
    return fleet;
  } catch (err) {
    await teardown();
    throw err;
  }
}
