/**
 * `GET /api/v1/sys/config/value/{key}`: the stored value of one key, read through the config snapshot (one
 * load serves every key; a change through the config centre invalidates it on every instance). 43004 when no
 * row holds the key.
 */

import { createRoute, z } from '@hono/zod-openapi';
import { ConfigErrorCode } from '@svc/data';
import { BusinessError, ok } from '@svc/kernel';
import { noNul } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { ConfigRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/config/value/{key}',
  tags: ['Config'],
  summary: 'Get a config value by key',
  request: {
    params: z.object({
      key: z
        .string()
        .min(1)
        .max(128)
        .refine(noNul, 'must not contain NUL')
        .openapi({ param: { name: 'key', in: 'path' }, example: 'sys.site.title' }),
    }),
  },
  responses: envelopeResponses(z.object({ key: z.string(), value: z.string() })),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'configStore'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Config' }, async (c) => {
    const { key } = c.req.valid('param');
    const value = await d.configStore.getRaw(key);
    if (value === undefined) throw new BusinessError(ConfigErrorCode.ConfigNotFound, { key });
    return c.json(ok({ key, value }), 200);
  });
}
