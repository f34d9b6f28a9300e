/** `DELETE /api/v1/personal/passkeys/{id}`: removes one of the caller's passkeys (40038 for another user's). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { idPath } from '../../../openapi/query.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { PasskeyModuleServices } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/personal/passkeys/{id}',
  tags: ['Personal'],
  summary: 'Remove my passkey',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export default defineRoute(
  route,
  { auth: 'authenticated', reauth: true },
  (s: Pick<PasskeyModuleServices, 'passkeys'>) => async (c) => {
    await s.passkeys.remove(requireUser(c).userId, c.req.valid('param').id);
    return c.json(ok(null), 200);
  },
);
