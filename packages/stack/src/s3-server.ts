import getPort from 'get-port';
import S3rver from 's3rver';
import type { RunningService } from './embedded-postgres.ts';

/** A local S3-compatible server for tests of the S3 driver (it does not verify signatures). */
export async function startS3Server(options: {
  directory: string;
  bucket: string;
  port?: number;
  /** The one address it listens on (default loopback). */
  address?: string;
}): Promise<RunningService & { port: number }> {
  const port = options.port ?? (await getPort());
  const address = options.address ?? '127.0.0.1';
  const server = new S3rver({
    port,
    address,
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  await server.run();
  return { url: `http://${address}:${port}`, port, stop: () => server.close() };
}
