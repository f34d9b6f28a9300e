/** `GET /api/v1/personal/profile`: the caller's own profile. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { UserItemSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import { requireUser } from '../../../../security/principal.js';
import type { AdminRouteDeps } from '../../services.js';

export const ProfileSchema = UserItemSchema.extend({
  orgName: z.string().nullable(),
  positionName: z.string().nullable(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string(), code: z.string() })),
  lastLoginIp: z.string().nullable(),
}).openapi('Profile');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/personal/profile',
  tags: ['Personal'],
  summary: 'My profile',
  responses: envelopeResponses(ProfileSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    return c.json(ok(jsonify(await deps.admin.personal.profile(requireUser(c)))), 200);
  });
}
