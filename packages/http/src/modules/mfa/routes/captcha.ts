/** `GET /api/v1/auth/captcha`: a new image captcha of the type in effect (`sys.security.captcha.type`). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { MfaRouteDeps } from '../services.js';

export const CaptchaSchema = z
  .object({
    captchaId: z.string().openapi({ description: 'GUID v7 ticket; send it back as `captchaId`.' }),
    svg: z.string().openapi({ description: 'A standalone SVG document (show it as an image).' }),
    type: z.enum(['char', 'path', 'math']),
  })
  .openapi('Captcha');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/auth/captcha',
  tags: ['Auth'],
  summary: 'Get an image captcha',
  description: 'The answer is valid for 2 minutes and consumed by the first guess, right or wrong.',
  responses: envelopeResponses(CaptchaSchema),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    return c.json(ok(await d.mfa.issueCaptcha()), 200);
  });
}
