/** `GET /api/v1/auth/external/providers/all`: every configured provider with its switches (administrators). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE } from './shared.js';

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

export function register(ctx: RegisterContext, { service }: Pick<ExternalAuthRouteDeps, 'service'>): void {
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
