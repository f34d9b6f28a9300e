/**
 * `GET /api/v1/sys/notice/page`: live notices sent by users inside the caller's data scope (those of no sender for
 * scope All only), newest first; filters `title` (contains) and `type`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { pageNotices } from '@svc/modules';
import { intParam, mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { NoticeServices } from '../services.js';
import { NoticeSchema, noticeDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/notice/page',
  tags: ['Notice'],
  summary: 'List notices',
  request: {
    query: pageQuerySchema({
      title: textParam.optional(),
      // The three types only: a number beyond the column's range failed the query on PostgreSQL (500).
      type: intParam
        .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]))
        .optional()
        .openapi({ type: 'integer', description: '1 Notice, 2 Announcement, 3 Message.' }),
    }),
  },
  responses: envelopeResponses(pageSchema(NoticeSchema)),
});

export function register(ctx: RegisterContext, d: Pick<NoticeServices, 'notices' | 'scopeOf'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Notice' }, async (c) => {
    const query = c.req.valid('query');
    const page = await pageNotices(d.notices, query, await d.scopeOf(requirePrincipal(c)));
    return c.json(ok(mapPage(page, noticeDto)), 200);
  });
}
