import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsHandler } from '@quire/metrics';
import type { WorkerContext } from './context.ts';
import type { RunningWorker } from './worker.ts';

export interface WorkerHttpServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The worker's own small HTTP server: `/metrics` (job durations, extraction failures, webhook attempts, and
 * process metrics; Prometheus scrapes each worker) and `/healthz` (200 while its workers run, for
 * container health checks).
 */
export async function startWorkerHttpServer(
  ctx: WorkerContext,
  running: RunningWorker,
  port = ctx.config.server.workerMetricsPort,
  host = ctx.config.server.host,
): Promise<WorkerHttpServer> {
  const metrics = metricsHandler(ctx.metrics.registry, ctx.config.server.metricsToken);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker').pathname;
    if (req.method === 'GET' && path === '/metrics') {
      metrics(req, res).catch((err) => {
        ctx.logger.warn({ err }, 'could not collect metrics');
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    if (req.method === 'GET' && path === '/healthz') {
      const alive = running.worker.isRunning() && running.interactive.isRunning() && running.webhooks.isRunning();
      res
        .writeHead(alive ? 200 : 503, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ status: alive ? 'ok' : 'stopping' }));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'Not Found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `WORKER_METRICS_PORT ${port} is in use: give each worker process on this machine its own port, or 0 for any free one`,
            )
          : err,
      ),
    );
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
