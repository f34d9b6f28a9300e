/** `GET /api/v1/meta/error-codes`: the public catalog of every registered code (module `Meta`). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { ModuleCore } from '../../../module/core.js';
import type { RegisterContext } from '../../../openapi/register.js';
import { registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';

export const CatalogEntrySchema = z
  .object({
    code: z.number().int(),
    name: z.string(),
    msgKey: z.string(),
    source: z.string().openapi({ description: '`ErrorCode` for kernel codes, else the consumer set name.' }),
  })
  .openapi('ErrorCatalogEntry');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/meta/error-codes',
  tags: ['Meta'],
  summary: 'Error-code catalog',
  responses: envelopeResponses(z.array(CatalogEntrySchema)),
});

export function register(ctx: RegisterContext, deps: Pick<ModuleCore, 'errors'>): void {
  const catalog = deps.errors.catalog();
  registerRoute(ctx, route, { auth: 'anonymous', module: 'Meta' }, (c) => c.json(ok(catalog), 200));
}
