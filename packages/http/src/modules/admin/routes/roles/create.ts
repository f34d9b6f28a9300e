/** `POST /api/v1/sys/role`: creates a role (scope Self, no grants; 42018 when the code is taken). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { CreatedSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { CreateRoleSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/role',
  tags: ['Roles'],
  summary: 'Create a role',
  request: { body: { required: true, content: { 'application/json': { schema: CreateRoleSchema } } } },
  responses: envelopeResponses(CreatedSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    return c.json(ok(await deps.admin.roles.create(actorOf(c, deps), c.req.valid('json'))), 200);
  });
}
