/** `GET /api/v1/sys/user/{id}/passkeys`: an administrator lists a user's passkeys (the target checks of every user action). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { idPath } from '../../../openapi/query.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { PasskeyModuleServices } from '../services.js';
import { PasskeySchema, passkeyJson } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/user/{id}/passkeys',
  tags: ['User'],
  summary: "A user's passkeys",
  description:
    '42001 unknown user or one outside the data scope; 42007 the super admin (for others); 41001 rank.',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.array(PasskeySchema)),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<PasskeyModuleServices, 'passkeys' | 'admin'>) => async (c) => {
    const { id } = c.req.valid('param');
    await s.admin.users.checkTarget(s.admin.actorOf(requirePrincipal(c)), id);
    return c.json(ok((await s.passkeys.list(id)).map(passkeyJson)), 200);
  },
);
