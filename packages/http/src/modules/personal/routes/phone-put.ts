/** `PUT /api/v1/personal/phone`: the code sent to the new number sets it as the caller's phone (contract §10). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import { CodeSchema, jsonBody, PhoneSchema } from '../../mfa/routes/schemas.js';
import type { PhoneRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/personal/phone',
  tags: ['Personal'],
  summary: 'Confirm a new phone number',
  description: '40010 wrong code (`args.attemptsLeft`); 40011 no live code for this number.',
  request: jsonBody(z.object({ phone: PhoneSchema, code: CodeSchema }).strict()),
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: PhoneRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await deps.phone.confirm(requireUser(c), c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
