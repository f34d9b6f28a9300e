/**
 * `POST /api/v1/sys/cache/rebuild-portal`: bumps the portal-menu generation counter (old `portal:*` entries
 * stop being read and expire by TTL); answers the new generation.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { CacheRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/cache/rebuild-portal',
  tags: ['Cache'],
  summary: 'Rebuild portal menus',
  responses: envelopeResponses(z.object({ generation: z.number().int() })),
});

export function register(ctx: RegisterContext, d: Pick<CacheRouteDeps, 'cache'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Cache' }, async (c) => {
    return c.json(ok({ generation: await d.cache.rebuildPortal() }), 200);
  });
}
