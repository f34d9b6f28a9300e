/** `GET /api/v1/auth/external/providers`: the enabled providers, for the login page. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE } from './shared.js';

const ProviderSchema = z
  .object({ code: z.string(), displayName: z.string(), icon: z.string() })
  .openapi('ExternalProvider');

export const route = createRoute({
  method: 'get',
  path: `${BASE}/providers`,
  tags: ['External login'],
  summary: 'Enabled external login providers',
  responses: envelopeResponses(z.array(ProviderSchema)),
});

export function register(ctx: RegisterContext, { service }: Pick<ExternalAuthRouteDeps, 'service'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const out = [];
    for (const p of service.providers())
      if ((await service.switches(p.Code)).enabled)
        out.push({ code: p.Code, displayName: p.DisplayName || p.Code, icon: p.Icon });
    return c.json(ok(out), 200);
  });
}
