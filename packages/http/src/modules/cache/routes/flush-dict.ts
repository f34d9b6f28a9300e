/** `POST /api/v1/sys/cache/flush-dict`: every dictionary type is reloaded at next read; answers how many entries were cleared. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { ClearedSchema, envelopeResponses } from '../../../openapi/schemas.js';
import type { CacheRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/cache/flush-dict',
  tags: ['Cache'],
  summary: 'Flush dictionary caches',
  responses: envelopeResponses(ClearedSchema),
});

export function register(ctx: RegisterContext, d: Pick<CacheRouteDeps, 'cache'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Cache' }, async (c) => {
    return c.json(ok({ cleared: await d.cache.flushDict() }), 200);
  });
}
