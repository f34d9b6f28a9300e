/** `PUT /api/v1/sys/notice/read-all`: marks every notice of the caller read. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { readAllNotices } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { NoticeServices } from '../services.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/notice/read-all',
  tags: ['Notice'],
  summary: 'Mark all my notices read',
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<NoticeServices, 'notices'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Notice' }, async (c) => {
    await readAllNotices(d.notices, requireUser(c).userId);
    return c.json(ok(null), 200);
  });
}
