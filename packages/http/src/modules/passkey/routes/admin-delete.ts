/**
 * `DELETE /api/v1/sys/user/{id}/passkeys/{passkeyId}`: an administrator removes a user's passkey and every session
 * of that user is revoked (the caller's own excepted); 40038 for a passkey that is not this user's.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { idParam, idPath } from '../../../openapi/query.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { PasskeyModuleServices } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/user/{id}/passkeys/{passkeyId}',
  tags: ['User'],
  summary: "Remove a user's passkey",
  description:
    "42001/42007/41001 as for every user action; 40038 unknown passkey. Revokes the user's sessions.",
  request: {
    params: z.object({
      id: idPath,
      passkeyId: idParam.openapi({ param: { name: 'passkeyId', in: 'path' }, type: 'integer', example: 1 }),
    }),
  },
  responses: envelopeResponses(z.null()),
});

export default defineRoute(
  route,
  { auth: 'permission', reauth: true },
  (s: Pick<PasskeyModuleServices, 'passkeys' | 'admin'>) => async (c) => {
    const { id, passkeyId } = c.req.valid('param');
    const principal = requirePrincipal(c);
    await s.admin.users.checkTarget(s.admin.actorOf(principal), id);
    await s.passkeys.removeByAdmin(
      id,
      passkeyId,
      principal.kind === 'user' ? principal.sessionId : undefined,
    );
    return c.json(ok(null), 200);
  },
);
