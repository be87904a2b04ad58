import path from 'node:path';
import readline from 'node:readline';
import { startEmbeddedPostgres, startRedisServer, startS3Server, type RunningService } from '@quire/stack';

/**
 * The stores host of a test fleet (`fleet.ts`), run inside its network namespace: Postgres, Redis and the S3
 * server bound to the host's addresses. It prints one JSON line when they are up, then takes commands on
 * stdin (`stop-postgres`, `start-postgres`), answering each with one JSON line.
 */
export interface StoresSettings {
  dataDir: string;
  /** The host's address on the fleet's network, then any other addresses Redis also listens on. */
  addresses: string[];
  clientNetwork: string;
  ports: { postgres: number; redis: number; s3: number };
  bucket: string;
}

export interface StoresReady {
  databaseUrl: string;
  /** One Redis URL per address in `addresses`. */
  redisUrls: string[];
  s3Endpoint: string;
}

async function main(settings: StoresSettings): Promise<void> {
  const [address] = settings.addresses;
  const startPostgres = () =>
    startEmbeddedPostgres({
      dataDir: path.join(settings.dataDir, 'postgres'),
      port: settings.ports.postgres,
      listen: { addresses: [address!], clientNetwork: settings.clientNetwork },
    });
  let postgres: RunningService | undefined = await startPostgres();
  const redis = await startRedisServer({ port: settings.ports.redis, bind: settings.addresses });
  const s3 = await startS3Server({
    directory: path.join(settings.dataDir, 's3'),
    bucket: settings.bucket,
    port: settings.ports.s3,
    address,
  });
  const ready: StoresReady = {
    databaseUrl: postgres.url,
    redisUrls: settings.addresses.map((a) => `redis://${a}:${settings.ports.redis}`),
    s3Endpoint: s3.url,
  };
  const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  say({ ready });

  const stopAll = async () => {
    await postgres?.stop();
    await redis.stop();
    await s3.stop();
  };
  process.once('SIGTERM', () => void stopAll().finally(() => process.exit(0)));

  for await (const line of readline.createInterface({ input: process.stdin })) {
    try {
      if (line === 'stop-postgres') {
        await postgres?.stop();
        postgres = undefined;
      } else if (line === 'start-postgres') {
        postgres ??= await startPostgres();
      } else {
        throw new Error(`unknown command ${line}`);
      }
      say({ done: line });
    } catch (err) {
      say({ failed: line, error: (err as Error).message });
    }
  }
  await stopAll();
}

main(JSON.parse(process.argv[2]!) as StoresSettings).catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
