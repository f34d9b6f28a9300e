/** `GET /api/v1/sys/module/list`: every live portal module, by sort then id. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../admin/json.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { PortalRouteDeps } from './route-deps.js';
import { ModuleItemSchema } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/module/list',
  tags: ['Modules'],
  summary: 'List portal modules',
  responses: envelopeResponses(z.array(ModuleItemSchema)),
});

export function register(ctx: RegisterContext, d: PortalRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(jsonify(await d.modules.list())), 200);
  });
}
