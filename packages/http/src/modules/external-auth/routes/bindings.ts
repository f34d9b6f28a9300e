/** `GET /api/v1/auth/external/bindings`: the signed-in user's external identities. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE } from './shared.js';

const BindingSchema = z
  .object({ provider: z.string(), displayName: z.string().nullable(), boundAt: z.string() })
  .openapi('ExternalBinding');

export const route = createRoute({
  method: 'get',
  path: `${BASE}/bindings`,
  tags: ['External login'],
  summary: 'My external identities',
  responses: envelopeResponses(z.array(BindingSchema)),
});

export function register(ctx: RegisterContext, { bindings }: Pick<ExternalAuthRouteDeps, 'bindings'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    const rows = await bindings.listByUser(requireUser(c).userId);
    return c.json(
      ok(
        rows.map((r) => ({
          provider: r.provider,
          displayName: r.displayName,
          boundAt: r.createTime.toISOString(),
        })),
      ),
      200,
    );
  });
}
