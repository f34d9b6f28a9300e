/**
 * `DELETE /api/v1/sys/notice/{id}`: deletes a notice; it vanishes from every inbox (45001 when absent or sent by no
 * user inside the caller's data scope).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { deleteNotice } from '@svc/modules';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { NoticeServices } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/notice/{id}',
  tags: ['Notice'],
  summary: 'Delete a notice',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<NoticeServices, 'notices' | 'scopeOf'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Notice' }, async (c) => {
    const principal = requirePrincipal(c);
    await deleteNotice(d.notices, c.req.valid('param').id, principal.userId, await d.scopeOf(principal));
    return c.json(ok(null), 200);
  });
}
