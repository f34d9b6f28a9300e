/**
 * `POST /api/v1/sys/user`: creates a user. The initial password is the optional `password` (checked against the
 * password policy, 42019 with the requirements), else `Service:Security:DefaultInitialPassword`, else a strong
 * random one answered once as `initialPassword`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { userFieldsShape } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const CreateUserSchema = z
  .object({
    account: z.string().trim().min(1).max(64).regex(/^\S+$/, 'must not contain spaces'),
    ...userFieldsShape,
    enabled: z.boolean().optional(),
    password: z.string().min(1).max(128).optional().openapi({
      description:
        'Initial password chosen by the administrator; must meet the password policy (42019 with the requirements). Without it the configured or a generated one is used.',
    }),
  })
  .strict()
  .openapi('CreateUser');

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/user',
  tags: ['Users'],
  summary: 'Create a user',
  request: { body: { required: true, content: { 'application/json': { schema: CreateUserSchema } } } },
  responses: envelopeResponses(
    z.object({
      id: z.number().int(),
      initialPassword: z.string().optional().openapi({ description: 'Only when generated; shown once.' }),
    }),
  ),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const created = await deps.admin.users.create(actorOf(c, deps), c.req.valid('json'));
    return c.json(ok(created), 200);
  });
}
