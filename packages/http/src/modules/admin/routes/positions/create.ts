/** `POST /api/v1/sys/position`: creates a position. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { CreatedSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { CreatePositionSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/position',
  tags: ['Positions'],
  summary: 'Create a position',
  request: { body: { required: true, content: { 'application/json': { schema: CreatePositionSchema } } } },
  responses: envelopeResponses(CreatedSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(await deps.admin.positions.create(actorOf(c, deps), c.req.valid('json'))), 200);
  });
}
