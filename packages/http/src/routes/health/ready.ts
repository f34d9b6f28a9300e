/**
 * `GET /health/ready`: `Healthy` only when the database and the cache answer, each within a time limit;
 * otherwise 503 `Unhealthy` (the failing dependency is logged, not shown).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';
import { registerRoute } from '../../openapi/register.js';

/** A probe that hangs is as bad as one that fails: each check gets this long. */
export const READINESS_TIMEOUT_MS = 3000;

export const route = createRoute({
  method: 'get',
  path: '/health/ready',
  tags: ['Health'],
  summary: 'Readiness probe (database and cache)',
  responses: {
    200: {
      description: 'Database and cache answer.',
      content: { 'text/plain': { schema: z.literal('Healthy') } },
    },
    503: {
      description: 'A dependency does not answer.',
      content: { 'text/plain': { schema: z.literal('Unhealthy') } },
    },
  },
});

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function register(ctx: RegisterContext, deps: Pick<HttpDeps, 'readiness' | 'logger'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const results = await Promise.allSettled(
      deps.readiness.map((h) => withTimeout(h.check(), READINESS_TIMEOUT_MS)),
    );
    const failed = results.flatMap((r, i) =>
      r.status === 'rejected' ? [{ name: deps.readiness[i]?.name, reason: r.reason }] : [],
    );
    if (failed.length === 0) return c.text('Healthy', 200);
    for (const f of failed) deps.logger.warn(`Readiness: ${f.name} is not ready.`, { error: f.reason });
    return c.text('Unhealthy', 503);
  });
}
