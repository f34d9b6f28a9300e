/** `POST /api/v1/sys/org`: creates an organisation (42008 unknown parent). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { CreatedSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { CreateOrgSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/org',
  tags: ['Organisations'],
  summary: 'Create an organisation',
  request: { body: { required: true, content: { 'application/json': { schema: CreateOrgSchema } } } },
  responses: envelopeResponses(CreatedSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(await deps.admin.orgs.create(actorOf(c, deps), c.req.valid('json'))), 200);
  });
}
