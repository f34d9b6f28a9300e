/** `GET /api/v1/sys/notice/unread-count`: how many of the caller's notices are unread. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { unreadCount } from '../../notices/service.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { requireUser } from '../../security/principal.js';
import type { NoticeRouteDeps } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/notice/unread-count',
  tags: ['Notice'],
  summary: 'My unread notice count',
  responses: envelopeResponses(z.number().int()),
});

export function register(ctx: RegisterContext, d: NoticeRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Notice' }, async (c) => {
    return c.json(ok(await unreadCount(d.notices, requireUser(c).userId)), 200);
  });
}
