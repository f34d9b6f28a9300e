/**
 * `POST /api/v1/auth/passkey/login`: verifies the assertion and answers the login output, under the rules of a
 * password login (locks, disabled account, session modes and limits, cookie mode, login log, rate limits).
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { defineRoute } from '../../../module/define.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { loginOutput } from '../../../security/cookies.js';
import { LoginOutputSchema } from '../../auth/routes/schemas.js';
import type { PasskeyModuleServices } from '../services.js';
import { AssertionBody, jsonBody } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/passkey/login',
  tags: ['Auth'],
  summary: 'Log in with a passkey',
  description:
    '40035 assertion refused (counts on the second-factor counter); 40036 dead challenge; 40004 locked; 40005 disabled; without user verification 40009/40018/40020 as after a password.',
  request: jsonBody(AssertionBody),
  responses: envelopeResponses(LoginOutputSchema),
});

export default defineRoute(
  route,
  { auth: 'anonymous' },
  (s: Pick<PasskeyModuleServices, 'passkeys' | 'security' | 'now'>) => async (c) => {
    const issued = await s.passkeys.login(c.req.valid('json'), clientInfoOf(c, s.security.resolveClientIp));
    return c.json(ok(loginOutput(c, s.security, issued, s.now())), 200);
  },
);
