/**
 * `POST /api/v1/sys/file/batch-delete`: soft-deletes several files. Every id must name a live file uploaded
 * within the caller's data scope (contract §10), else the whole batch is refused with 44004 naming the ids, as
 * the user batch delete does. The bytes stay until the file is purged from the recycle bin.
 */

import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ok } from '@svc/kernel';
import { UploadErrorCode } from '@svc/modules';
import { IdListSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf, scopeOf } from '../../../security/principal.js';
import type { UploadRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/file/batch-delete',
  tags: ['File'],
  summary: 'Delete several files',
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ ids: IdListSchema.min(1) }).strict() } },
    },
  },
  responses: envelopeResponses(z.object({ deleted: z.number().int() })),
});

export function register(
  ctx: RegisterContext,
  d: Pick<UploadRouteDeps, 'fileRows' | 'now' | 'scopes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    const ids = [...new Set(c.req.valid('json').ids)];
    const files = d.fileRows;
    const visible = await files.findLive(ids, await scopeOf(c, d.scopes));
    const missing = ids.filter((id) => !visible.some((f) => f.id === id));
    if (missing.length > 0) throw new BusinessError(UploadErrorCode.FileNotFound, { ids: missing });
    const deleted = await files.softDeleteMany(ids, { userId: actorIdOf(c), now: d.now() });
    return c.json(ok({ deleted }), 200);
  });
}
