/** `PUT /api/v1/personal/password`: self-service change (policy 42019, reuse 42025, wrong old password 40001). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { requireUser } from '../../../security/principal.js';
import { PasswordSchema } from '../../auth/routes/schemas.js';
import type { PersonalRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/personal/password',
  tags: ['Personal'],
  summary: 'Change my password',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({ oldPassword: PasswordSchema, newPassword: PasswordSchema }),
        },
      },
    },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, { security }: Pick<PersonalRouteDeps, 'security'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    const { oldPassword, newPassword } = c.req.valid('json');
    const client = clientInfoOf(c, security.resolveClientIp);
    await security.auth.changePassword(requireUser(c), oldPassword, newPassword, client);
    return c.json(ok(null), 200);
  });
}
