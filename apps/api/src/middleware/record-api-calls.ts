import type { NextFunction, Request, Response } from 'express';
import type { ApiCallRecorder } from '../usage/api-call-recorder.ts';

/**
 * Records each authenticated request as an `api_call` usage event once its response is done: the documented
 * endpoint template (`GET /api/v1/materials/{id}`, as `httpMetrics` matched it before), the status, the duration
 * and the key. The recorder writes them in batches, so a request pays for a timestamp and an array push.
 */
export function recordApiCalls(recorder: ApiCallRecorder) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith('/api/') || !recorder.wants()) return next();
    const started = performance.now();
    const occurredAt = new Date();
    const { method } = req;
    res.once('close', () => {
      const principal = req.principal;
      if (!principal) return;
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      recorder.record({
        organizationId: principal.organizationId,
        groupId: principal.groupId,
        occurredAt,
        durationMs,
        properties: {
          endpoint: `${method} ${(res.locals.routeTemplate as string | undefined) ?? 'unmatched'}`,
          method,
          status: res.statusCode,
          durationMs,
          keyId: principal.keyId,
        },
      });
    });
    next();
  };
}
