import http from 'node:http';
import type { ApiContext } from './context.ts';
import { createApp } from './app.ts';

export interface RunningServer {
  server: http.Server;
  url: string;
  /** Stops accepting connections, lets running requests finish until the deadline, then cuts them. */
  close(deadlineMs?: number): Promise<void>;
}

export async function startServer(
  ctx: ApiContext,
  port = ctx.config.server.port,
  host = ctx.config.server.host,
): Promise<RunningServer> {
  const server = http.createServer(createApp(ctx));
  // Uploads of large files are long requests: no total request timeout, but a silent connection is dropped.
  server.requestTimeout = 0;
  server.headersTimeout = ctx.config.server.headersTimeoutMs;
  server.timeout = ctx.config.server.idleTimeoutMs;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as { port: number };
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: (deadlineMs = ctx.config.server.shutdownMs) =>
      new Promise<void>((resolve) => {
        ctx.shutdown.abort();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still running at the deadline (long uploads, long waits) are cut; clients retry them.
        setTimeout(() => server.closeAllConnections(), deadlineMs).unref();
      }),
  };
}

/**
 * Bytes the HTTP parser cannot read (a body longer than its Content-Length runs into the next request) get
 * the usual JSON error body instead of Node's bare 400, and the connection is closed.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({
    statusCode: status,
    error: http.STATUS_CODES[status],
    message: 'The request could not be parsed',
  });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
