/** `DELETE /api/v1/sys/recycle/{type}/{id}`: deletes a soft-deleted row for good (42020 not in the bin). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { RecycleBinRouteDeps } from '../services.js';
import { TypeIdParamSchema } from './params.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/recycle/{type}/{id}',
  tags: ['Recycle bin'],
  summary: 'Purge a deleted row',
  request: { params: TypeIdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(
  ctx: RegisterContext,
  deps: Pick<RecycleBinRouteDeps, 'recycleBin' | 'actorOf'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const { type, id } = c.req.valid('param');
    await deps.recycleBin.get(type).purge(deps.actorOf(requirePrincipal(c)), id);
    return c.json(ok(null), 200);
  });
}
