/** `GET /api/v1/sys/config/page`: config rows, filters `key`, `name` (contains). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { ConfigRouteDeps } from '../services.js';
import { ConfigRowSchema, configDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/config/page',
  tags: ['Config'],
  summary: 'List config entries',
  request: { query: pageQuerySchema({ key: textParam.optional(), name: textParam.optional() }) },
  responses: envelopeResponses(pageSchema(ConfigRowSchema)),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'configs'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Config' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(mapPage(await d.configs.page(query), configDto)), 200);
  });
}
