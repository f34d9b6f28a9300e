/** `PUT /api/v1/sys/notice/{id}/read`: marks one of the caller's notices read (45001 when not theirs or gone). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { readNotice } from '@svc/modules';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { NoticeServices } from '../services.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/notice/{id}/read',
  tags: ['Notice'],
  summary: 'Mark a notice read',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<NoticeServices, 'notices'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Notice' }, async (c) => {
    await readNotice(d.notices, requireUser(c).userId, c.req.valid('param').id);
    return c.json(ok(null), 200);
  });
}
