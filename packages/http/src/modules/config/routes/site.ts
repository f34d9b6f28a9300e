/** `GET /api/v1/sys/config/site` (anonymous): the whitelisted branding and login switches, and the modules' features. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { ConfigRouteDeps } from '../services.js';

export const SiteInfoSchema = z
  .object({
    title: z.string(),
    logoUrl: z.string(),
    footer: z.string(),
    captchaEnabled: z.boolean(),
    captchaType: z.enum(['char', 'path', 'math']),
    smsLoginEnabled: z.boolean(),
    features: z.record(z.string(), z.boolean()).openapi({
      description:
        "Flags the server's modules add, by name; absent means off. Built in: `passkey` (module Passkey on, its options usable and its switch on: `Service:Security:Passkey:Enabled` or `sys.security.passkey.enabled`).",
    }),
  })
  .openapi('SiteInfo');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/config/site',
  tags: ['Config'],
  summary: 'Site info for the login page',
  responses: envelopeResponses(SiteInfoSchema),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'site'>): void {
  registerRoute(ctx, route, { auth: 'anonymous', module: 'Config' }, async (c) => {
    return c.json(ok(await (await d.site).get()), 200);
  });
}
