/**
 * `POST /api/v1/personal/passkeys/options`: registration options for a new passkey of the caller (a resident key,
 * the caller's own passkeys excluded). Needs an open re-authentication window even while TOTP is off (40024): a
 * stolen access token must not add a lasting way in.
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
  path: '/api/v1/personal/passkeys/options',
  tags: ['Personal'],
  summary: 'Start adding a passkey',
  description: '40024 without a recent re-authentication (also while TOTP is off); 40037 passkeys off.',
  responses: envelopeResponses(CeremonyOptionsSchema),
});

export default defineRoute(
  route,
  { auth: 'authenticated' },
  (s: Pick<PasskeyModuleServices, 'passkeys'>) => async (c) =>
    c.json(ok(await s.passkeys.registrationOptions(requireUser(c), requestOrigin(c.req.url))), 200),
);
