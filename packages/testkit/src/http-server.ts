import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestHttpServer {
  port: number;
  /** Every request path received, in order. */
  hits: string[];
  /** Requests whose client hung up before the response ended. */
  abandoned: string[];
  close(): Promise<void>;
}

/**
 * A local HTTP server answering `routes` by path (404 otherwise). It listens on `::` dual-stack, so
 * 127.0.0.1, ::1, ::ffff:127.0.0.1 and 0.0.0.0 all reach it: a refused fetch shows as a missing hit.
 */
export async function startHttpServer(routes: Record<string, RequestListener>): Promise<TestHttpServer> {
  const hits: string[] = [];
  const abandoned: string[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    res.once('close', () => {
      if (!res.writableEnded) abandoned.push(path);
    });
    const route = routes[path];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    abandoned,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
