/** `POST /api/v1/sys/user/import/validate` `{rows}`: every row checked again, with per-cell errors. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { type ImportRouteDeps, importActorOf, importRowsPolicy } from '../services.js';
import { ImportRowSchema, ImportRowsBodySchema } from './schemas.js';

export const ImportValidatePath = '/api/v1/sys/user/import/validate';

export const route = createRoute({
  method: 'post',
  path: ImportValidatePath,
  tags: ['Import'],
  summary: 'Validate user import rows',
  request: { body: { required: true, content: { 'application/json': { schema: ImportRowsBodySchema } } } },
  responses: envelopeResponses(
    z.object({ rows: z.array(ImportRowSchema), total: z.number().int(), errorRows: z.number().int() }),
  ),
});

export function register(
  ctx: RegisterContext,
  d: Pick<ImportRouteDeps, 'admin' | 'imports' | 'maxBodyBytes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', ...importRowsPolicy(d) }, async (c) => {
    const input = c.req.valid('json').rows;
    const rows = await d.imports.validate(importActorOf(c, d), input);
    const errorRows = rows.filter((r) => r.errors.length > 0).length;
    return c.json(ok({ rows, total: rows.length, errorRows }), 200);
  });
}
