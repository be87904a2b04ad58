import type { Request, Response } from 'express';

export interface EventStream {
  send(event: string, data: unknown): void;
  /** Ends the response; `closed` resolves once, whoever ended it. */
  close(): void;
  readonly closed: Promise<void>;
}

/**
 * Turns the response into a Server-Sent Events stream with a heartbeat comment every `heartbeatMs`
 * (proxies and clients drop streams that stay silent); `onHeartbeat` runs on the same beat.
 */
export function openEventStream(
  req: Request,
  res: Response,
  heartbeatMs: number,
  onHeartbeat: () => void,
): EventStream {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx buffers responses unless told not to, which would hold events back.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  const socketTimeout = req.socket.timeout;
  // The idle timeout must not cut a stream the heartbeat keeps alive, however the two are configured.
  if (socketTimeout) req.socket.setTimeout(Math.max(socketTimeout, heartbeatMs * 2));

  let resolveClosed: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const heartbeat = setInterval(() => {
    res.write(': heartbeat\n\n');
    onHeartbeat();
  }, heartbeatMs);
  const finish = () => {
    clearInterval(heartbeat);
    resolveClosed();
  };
  res.once('close', finish);

  return {
    send(event, data) {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close() {
      if (!res.writableEnded) res.end();
      if (socketTimeout) req.socket.setTimeout(socketTimeout);
      finish();
    },
    closed,
  };
}
