/** `GET /api/v1/personal/sessions`: the caller's online sessions; `current` marks this one. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { OnlineSessionSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import { requireUser } from '../../../../security/principal.js';
import type { AdminRouteDeps } from '../../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/personal/sessions',
  tags: ['Personal'],
  summary: 'My sessions',
  responses: envelopeResponses(z.array(OnlineSessionSchema.extend({ current: z.boolean() }))),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    return c.json(ok(jsonify(await deps.admin.personal.sessions(requireUser(c)))), 200);
  });
}
