/**
 * `GET /health/ready`: `Healthy` only when the database and the cache answer, each within its time limit (the
 * database's is `AcquireTimeoutSeconds`, contract §11); 200 `Degraded` when a dependency the service can do
 * without is down (Redis: contract §10); otherwise 503 `Unhealthy` (the failing dependency is logged, not shown).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { HealthCheck, ModuleCore } from '../../../module/core.js';
import type { RegisterContext } from '../../../openapi/register.js';
import { registerRoute } from '../../../openapi/register.js';

/** A probe that hangs is as bad as one that fails: each check gets this long unless it says otherwise. */
export const READINESS_TIMEOUT_MS = 3000;

export const route = createRoute({
  method: 'get',
  path: '/health/ready',
  tags: ['Health'],
  summary: 'Readiness probe (database and cache)',
  responses: {
    200: {
      description:
        'Database and cache answer (`Healthy`), or Redis is down and its fallbacks serve (`Degraded`).',
      content: { 'text/plain': { schema: z.enum(['Healthy', 'Degraded']) } },
    },
    503: {
      description: 'A dependency does not answer.',
      content: { 'text/plain': { schema: z.literal('Unhealthy') } },
    },
  },
});

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A failed check: its name and why (logged by the route, never shown). */
export interface FailedCheck {
  name: string;
  reason: unknown;
}

/**
 * Runs every check at once, each bounded by its own `timeoutMs` (else {@link READINESS_TIMEOUT_MS}):
 * `Unhealthy` with the failures when one rejects or runs out of time, else `Degraded` when one says so, else
 * `Healthy`.
 */
export async function checkReadiness(
  checks: readonly HealthCheck[],
): Promise<{ state: 'Healthy' | 'Degraded' } | { state: 'Unhealthy'; failed: FailedCheck[] }> {
  const results = await Promise.allSettled(
    checks.map((h) => withTimeout(h.check(), h.timeoutMs ?? READINESS_TIMEOUT_MS)),
  );
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ name: checks[i]?.name ?? String(i), reason: r.reason }] : [],
  );
  if (failed.length > 0) return { state: 'Unhealthy', failed };
  const degraded = results.some((r) => r.status === 'fulfilled' && r.value === 'Degraded');
  return { state: degraded ? 'Degraded' : 'Healthy' };
}

export function register(ctx: RegisterContext, deps: Pick<ModuleCore, 'readiness' | 'logger'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const result = await checkReadiness(deps.readiness);
    if (result.state !== 'Unhealthy') return c.text(result.state, 200);
    for (const f of result.failed)
      deps.logger.warn(`Readiness: ${f.name} is not ready.`, { error: f.reason });
    return c.text('Unhealthy', 503);
  });
}
