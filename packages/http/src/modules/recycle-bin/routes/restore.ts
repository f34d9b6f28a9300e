/**
 * `POST /api/v1/sys/recycle/{type}/{id}/restore`: brings a row back (42020 not in the bin, 42021 unique clash).
 * A type whose own writes are high-sensitivity (users, roles, menus, config, jobs) needs the re-authentication
 * window (40024), as those writes do: a restored administrator is as good as a created one.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { reauthSatisfied } from '../../../security/guards.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { RecycleBinRouteDeps } from '../services.js';
import { TypeIdParamSchema } from './params.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/recycle/{type}/{id}/restore',
  tags: ['Recycle bin'],
  summary: 'Restore a deleted row',
  request: { params: TypeIdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: RecycleBinRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const { type, id } = c.req.valid('param');
    const bin = deps.recycleBin.get(type);
    const principal = requirePrincipal(c);
    if (bin.reauth && !(await reauthSatisfied(deps.reauth, principal)))
      throw new BusinessError(ErrorCode.ReauthRequired);
    await bin.restore(deps.actorOf(principal), id);
    return c.json(ok(null), 200);
  });
}
