/** `GET /api/v1/sys/notice/mine`: the caller's notices, newest first, with read state (`onlyUnread`). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { myNotices } from '@svc/modules';
import { boolParam, pageQuerySchema, pageSchema } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { NoticeServices } from '../services.js';
import { MyNoticeSchema } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/notice/mine',
  tags: ['Notice'],
  summary: 'My notices',
  request: { query: pageQuerySchema({ onlyUnread: boolParam.optional().openapi({ type: 'boolean' }) }) },
  responses: envelopeResponses(pageSchema(MyNoticeSchema)),
});

export function register(ctx: RegisterContext, d: Pick<NoticeServices, 'notices'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Notice' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(await myNotices(d.notices, requireUser(c).userId, query)), 200);
  });
}
