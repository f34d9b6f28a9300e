/** `GET /api/v1/sys/mfa/high-sensitivity`: the built-in default set (read-only) and the added codes. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { MfaRouteDeps } from '../services.js';

export const HighSensitivityItemSchema = z
  .object({
    id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Null for built-in items, which cannot be deleted.' }),
    permissionCode: z.string(),
    remark: z.string().nullable(),
    builtIn: z.boolean(),
  })
  .openapi('HighSensitivityItem');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/mfa/high-sensitivity',
  tags: ['MFA'],
  summary: 'List high-sensitivity permission codes',
  responses: envelopeResponses(z.array(HighSensitivityItemSchema)),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(await d.mfa.highSensitivity.list()), 200);
  });
}
