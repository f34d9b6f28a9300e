/** `DELETE /api/v1/auth/external/{provider}/binding`: removes the signed-in user's identity at a provider. */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ok } from '@svc/kernel';
import { ExternalAuthErrorCode } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE, ProviderParam } from './shared.js';

export const route = createRoute({
  method: 'delete',
  path: `${BASE}/{provider}/binding`,
  tags: ['External login'],
  summary: 'Unbind an external identity',
  description: '40034 no binding at this provider.',
  request: { params: ProviderParam },
  responses: envelopeResponses(z.null()),
});

export function register(
  ctx: RegisterContext,
  { service, bindings }: Pick<ExternalAuthRouteDeps, 'service' | 'bindings'>,
): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    const { provider } = c.req.valid('param');
    const code = service.provider(provider)?.Code ?? provider;
    if (!(await bindings.unbind(requireUser(c).userId, code)))
      throw new BusinessError(ExternalAuthErrorCode.ExternalBindingNotFound);
    return c.json(ok(null), 200);
  });
}
