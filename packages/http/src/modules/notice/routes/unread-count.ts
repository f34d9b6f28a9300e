/** `GET /api/v1/sys/notice/unread-count`: how many of the caller's notices are unread. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { unreadNoticeCount } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { NoticeServices } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/notice/unread-count',
  tags: ['Notice'],
  summary: 'My unread notice count',
  responses: envelopeResponses(z.number().int()),
});

export function register(ctx: RegisterContext, d: Pick<NoticeServices, 'notices'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Notice' }, async (c) => {
    return c.json(ok(await unreadNoticeCount(d.notices, requireUser(c).userId)), 200);
  });
}
