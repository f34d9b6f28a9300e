/** `GET /api/v1/sys/config/site` (anonymous): the whitelisted branding and login switches. */
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
