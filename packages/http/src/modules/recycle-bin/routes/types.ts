/**
 * `GET /api/v1/sys/recycle/types`: the types the recycle bin holds, in registration order (the enabled modules',
 * in module order, then those a consumer registers), each with its title and the codes restoring or purging its
 * rows needs besides the bin's own (the type's delete code; empty for a type that asks none), so a console hides
 * what the service would refuse (41001); a type whose module is switched off is not among them.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { RecycleBinRouteDeps } from '../services.js';

const RecycleTypeSchema = z
  .object({
    type: z.string().openapi({ example: 'position' }),
    title: z.string(),
    codes: z.array(z.string()).openapi({
      description:
        "The permission codes a caller needs besides the bin's own to restore or purge a row of this type (the " +
        "code of the type's own delete route); empty when the bin's codes suffice.",
      example: ['DELETE:/api/v1/sys/position/{id}'],
    }),
  })
  .openapi('RecycleType');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/recycle/types',
  tags: ['Recycle bin'],
  summary: 'Types of the recycle bin',
  responses: envelopeResponses(z.array(RecycleTypeSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<RecycleBinRouteDeps, 'recycleBin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => c.json(ok(deps.recycleBin.list()), 200));
}
