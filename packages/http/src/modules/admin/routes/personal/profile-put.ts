/**
 * `PUT /api/v1/personal/profile`: the fields a user may change on their own profile. The phone is a second
 * factor and is not among them (contract §10): a `phone` property is refused with 48000 like any unknown one;
 * the phone routes under `/personal/phone` change it with the current password and a code.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { userFieldsShape } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import { requireUser } from '../../../../security/principal.js';
import type { AdminRouteDeps } from '../../services.js';

export const UpdateProfileSchema = z
  .object({
    realName: userFieldsShape.realName.optional(),
    nickName: userFieldsShape.nickName,
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
  description: 'The phone number is not a profile field: see `/api/v1/personal/phone` (48000 for `phone`).',
  request: { body: { required: true, content: { 'application/json': { schema: UpdateProfileSchema } } } },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await deps.admin.personal.updateProfile(requireUser(c), c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
