/** `GET /api/v1/sys/module/{id}`: one portal module (42011 unknown). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../admin/json.js';
import { IdParamSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { PortalRouteDeps } from './route-deps.js';
import { ModuleItemSchema } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/module/{id}',
  tags: ['Modules'],
  summary: 'One portal module',
  request: { params: IdParamSchema },
  responses: envelopeResponses(ModuleItemSchema),
});

export function register(ctx: RegisterContext, d: PortalRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(jsonify(await d.modules.detail(c.req.valid('param').id))), 200);
  });
}
