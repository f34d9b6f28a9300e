/**
 * `POST /api/v1/auth/reauth/passkey/options`: authentication options for re-authenticating with one of the
 * caller's passkeys (`POST /api/v1/auth/reauth` with `method: "passkey"` completes it). The challenge belongs to
 * this user and session: a login challenge, or one of another session, answers 40036 there.
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { PasskeyModuleServices } from '../services.js';
import { CeremonyOptionsSchema, requestOrigin } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/reauth/passkey/options',
  tags: ['Auth'],
  summary: 'Start a re-authentication with a passkey',
  description: '40037 passkeys off.',
  responses: envelopeResponses(CeremonyOptionsSchema),
});

export default defineRoute(
  route,
  { auth: 'authenticated' },
  (s: Pick<PasskeyModuleServices, 'passkeys'>) => async (c) =>
    c.json(ok(await s.passkeys.reauthOptions(requireUser(c), requestOrigin(c.req.url))), 200),
);
