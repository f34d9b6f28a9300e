/** `PUT /api/v1/personal/profile`: the fields a user may change on their own profile. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { AdminRouteDeps } from '../../../admin/route-deps.js';
import { userFieldsShape } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';

export const UpdateProfileSchema = z
  .object({
    realName: userFieldsShape.realName.optional(),
    nickName: userFieldsShape.nickName,
    phone: userFieldsShape.phone,
    email: userFieldsShape.email,
    gender: userFieldsShape.gender,
    avatar: userFieldsShape.avatar,
  })
  .strict()
  .openapi('UpdateProfile');

export const route = createRoute({
  method: 'put',
  path: '/api/v1/personal/profile',
  tags: ['Personal'],
  summary: 'Update my profile',
  request: { body: { required: true, content: { 'application/json': { schema: UpdateProfileSchema } } } },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: AdminRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await deps.admin.personal.updateProfile(requireUser(c), c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
