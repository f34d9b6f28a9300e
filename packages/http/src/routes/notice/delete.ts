/** `DELETE /api/v1/sys/notice/{id}`: deletes a notice; it vanishes from every inbox (45001 when absent). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { deleteNotice } from '../../notices/service.js';
import { idPath } from '../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import type { NoticeRouteDeps } from './schemas.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/notice/{id}',
  tags: ['Notice'],
  summary: 'Delete a notice',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: NoticeRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Notice' }, async (c) => {
    await deleteNotice(d.notices, c.req.valid('param').id, c.get('principal')?.userId ?? null);
    return c.json(ok(null), 200);
  });
}
