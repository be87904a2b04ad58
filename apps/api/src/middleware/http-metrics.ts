import type { NextFunction, Request, Response } from 'express';
import type { ApiMetrics } from '../metrics.ts';
import type { RouteMatch } from '../routes/route-finder.ts';

/**
 * Observes every request's duration under its declared route template (found by the router's `match`), so the
 * label set stays bounded whatever paths clients send (anything else counts as `unmatched`).
 */
export function httpMetrics(metrics: ApiMetrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const route = (res.locals.route as RouteMatch | undefined)?.route.path ?? 'unmatched';
    // Matched once per request: the api_call recorder (record-api-calls.ts) files the call under it too.
    res.locals.routeTemplate = route;
    const stop = metrics.httpRequestDuration.startTimer({ method: req.method, route });
    res.once('close', () => stop({ status: String(res.statusCode) }));
    next();
  };
}
