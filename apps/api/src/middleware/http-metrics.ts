import type { NextFunction, Request, Response } from 'express';
import type { ApiMetrics } from '../metrics.ts';

/**
 * Observes every request's duration under its documented route template, so the label set stays bounded
 * whatever paths clients send (anything undocumented counts as `unmatched`).
 */
export function httpMetrics(metrics: ApiMetrics, routeOf: (method: string, pathname: string) => string | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    const route = routeOf(req.method, req.path) ?? 'unmatched';
    // Matched once per request: the api_call recorder (record-api-calls.ts) files the call under it too.
    res.locals.routeTemplate = route;
    const stop = metrics.httpRequestDuration.startTimer({ method: req.method, route });
    res.once('close', () => stop({ status: String(res.statusCode) }));
    next();
  };
}
