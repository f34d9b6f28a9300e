/**
 * `POST /api/v1/auth/passkey/options`: authentication options with an empty `allowCredentials` (discoverable
 * credentials). It takes no account, so it tells nothing about accounts.
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { PasskeyModuleServices } from '../services.js';
import { CeremonyOptionsSchema, requestOrigin } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/passkey/options',
  tags: ['Auth'],
  summary: 'Start a passkey login',
  description: '40037 passkeys off.',
  responses: envelopeResponses(CeremonyOptionsSchema),
});

export default defineRoute(
  route,
  { auth: 'anonymous' },
  (s: Pick<PasskeyModuleServices, 'passkeys'>) => async (c) =>
    c.json(ok(await s.passkeys.loginOptions(requestOrigin(c.req.url))), 200),
);
