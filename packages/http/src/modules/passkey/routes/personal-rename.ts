/** `PUT /api/v1/personal/passkeys/{id}`: renames one of the caller's passkeys (another user's id: 40038, as a missing one). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { idPath } from '../../../openapi/query.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { PasskeyModuleServices } from '../services.js';
import { jsonBody, PasskeyNameSchema } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/personal/passkeys/{id}',
  tags: ['Personal'],
  summary: 'Rename my passkey',
  request: {
    params: z.object({ id: idPath }),
    ...jsonBody(z.object({ name: PasskeyNameSchema }).strict()),
  },
  responses: envelopeResponses(z.null()),
});

export default defineRoute(
  route,
  { auth: 'authenticated' },
  (s: Pick<PasskeyModuleServices, 'passkeys'>) => async (c) => {
    await s.passkeys.rename(requireUser(c).userId, c.req.valid('param').id, c.req.valid('json').name);
    return c.json(ok(null), 200);
  },
);
