/**
 * `GET /api/v1/sys/recycle/types`: the types the recycle bin holds, in registration order (the kernel's, then a
 * consumer's), each with its title; a type whose module is switched off is not among them.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { AdminRouteDeps } from '../../../admin/route-deps.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';

const RecycleTypeSchema = z
  .object({ type: z.string().openapi({ example: 'position' }), title: z.string() })
  .openapi('RecycleType');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/recycle/types',
  tags: ['Recycle bin'],
  summary: 'Types of the recycle bin',
  responses: envelopeResponses(z.array(RecycleTypeSchema)),
});

export function register(ctx: RegisterContext, deps: AdminRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'RecycleBin' }, async (c) =>
    c.json(ok(deps.admin.recycleBin.list()), 200),
  );
}
