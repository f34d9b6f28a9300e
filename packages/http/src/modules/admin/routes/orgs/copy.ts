/**
 * `POST /api/v1/sys/org/{id}/copy` `{name?}`: clones the organisation and its subtree as a sibling (42003 for an
 * unknown source); answers the new root's id.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { CreatedSchema, IdParamSchema, name64 } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/org/{id}/copy',
  tags: ['Organisations'],
  summary: 'Copy an organisation subtree',
  request: {
    params: IdParamSchema,
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z
            .object({
              name: name64.optional().openapi({ description: 'Name of the copy (default "<name> (copy)").' }),
            })
            .strict(),
        },
      },
    },
  },
  responses: envelopeResponses(CreatedSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const body = c.req.valid('json') ?? {};
    return c.json(ok(await deps.admin.orgs.copy(actorOf(c, deps), c.req.valid('param').id, body.name)), 200);
  });
}
