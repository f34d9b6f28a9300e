/** `GET /api/v1/sys/config/password-policy` (bearer): the password policy in effect. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { ConfigRouteDeps } from '../services.js';

export const PasswordPolicySchema = z
  .object({
    minLength: z.number().int(),
    requireUpper: z.boolean(),
    requireLower: z.boolean(),
    requireDigit: z.boolean(),
    requireSpecial: z.boolean(),
    expireDays: z.number().int(),
    forceChangeOnFirstLogin: z.boolean(),
    historyCount: z.number().int(),
  })
  .openapi('PasswordPolicy');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/config/password-policy',
  tags: ['Config'],
  summary: 'Password policy in effect',
  responses: envelopeResponses(PasswordPolicySchema),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'settings'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Config' }, async (c) => {
    return c.json(ok(await d.settings.passwordPolicy()), 200);
  });
}
