/** `GET /api/v1/sys/config/{id}`: one config row (43004 when absent). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { ConfigRouteDeps } from '../services.js';
import { ConfigRowSchema, configDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/config/{id}',
  tags: ['Config'],
  summary: 'Get a config entry',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(ConfigRowSchema),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'configs'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Config' }, async (c) => {
    return c.json(ok(configDto(await d.configs.get(c.req.valid('param').id))), 200);
  });
}
