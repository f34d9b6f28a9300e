/** `POST /api/v1/sys/module`: creates a portal module (42012 when a live module has the code). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { CreatedSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorOf, type PortalRouteDeps } from './route-deps.js';
import { CreateModuleSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/module',
  tags: ['Modules'],
  summary: 'Create a portal module',
  request: { body: { required: true, content: { 'application/json': { schema: CreateModuleSchema } } } },
  responses: envelopeResponses(CreatedSchema),
});

export function register(ctx: RegisterContext, d: PortalRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(await d.modules.create(actorOf(c, d), c.req.valid('json'))), 200);
  });
}
