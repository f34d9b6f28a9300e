/** `GET /api/v1/personal/passkeys`: the caller's passkeys. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { PasskeyModuleServices } from '../services.js';
import { PasskeySchema, passkeyJson } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/personal/passkeys',
  tags: ['Personal'],
  summary: 'My passkeys',
  responses: envelopeResponses(z.array(PasskeySchema)),
});

export default defineRoute(
  route,
  { auth: 'authenticated' },
  (s: Pick<PasskeyModuleServices, 'passkeys'>) => async (c) =>
    c.json(ok((await s.passkeys.list(requireUser(c).userId)).map(passkeyJson)), 200),
);
