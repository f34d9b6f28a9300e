/**
 * `GET /metrics` (Prometheus text format). Outside `/api/v1` and the OpenAPI document, anonymous: operators
 * must not expose it publicly (keep it behind the proxy, or use `Service:Metrics:Port` bound to a private
 * address). Also served by the separate metrics listener (host/listen.ts).
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import { METRICS_CONTENT_TYPE, type ServiceMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

/** Registers `GET /metrics` on the app (not an OpenAPI route: it never appears in the contract). */
export function registerMetricsRoute(app: Hono<AppEnv>, metrics: ServiceMetrics): void {
  app.get(METRICS_PATH, async (c) => {
    const body = await metrics.render();
    return c.body(body, 200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
  });
}

/** A bare Node server answering `GET /metrics` and 404 for anything else (the separate metrics port). */
export function createMetricsServer(metrics: ServiceMetrics, onError: (error: unknown) => void): Server {
  return createHttpServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    metrics.render().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        onError(error);
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics unavailable');
      },
    );
  });
}
