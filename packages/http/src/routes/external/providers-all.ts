/** `GET /api/v1/auth/external/providers/all`: every configured provider with its switches (administrators). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { HttpDeps } from '../../deps.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { BASE, externalAuthOf } from './shared.js';

const ProviderStateSchema = z
  .object({
    code: z.string(),
    displayName: z.string(),
    icon: z.string(),
    authority: z.string(),
    enabled: z.boolean(),
    provisioning: z.boolean(),
    linkByAccount: z.boolean(),
  })
  .openapi('ExternalProviderState');

export const route = createRoute({
  method: 'get',
  path: `${BASE}/providers/all`,
  tags: ['External login'],
  summary: 'All configured providers with their runtime switches',
  responses: envelopeResponses(z.array(ProviderStateSchema)),
});

export function register(ctx: RegisterContext, deps: HttpDeps): void {
  const service = externalAuthOf(deps);
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const out = [];
    for (const p of service.providers()) {
      const s = await service.switches(p.Code);
      out.push({
        code: p.Code,
        displayName: p.DisplayName || p.Code,
        icon: p.Icon,
        authority: p.Authority,
        enabled: s.enabled,
        provisioning: s.provisioning,
        linkByAccount: s.linkByAccount,
      });
    }
    return c.json(ok(out), 200);
  });
}
