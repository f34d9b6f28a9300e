/** `POST /api/v1/sys/notice`: publishes a notice (45002 no receivers, 45003 unknown receiver, 45004 bad action). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { publishNotice } from '../../notices/service.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { IdSchema } from '../ops/schemas.js';
import { NoticePublishSchema, type NoticeRouteDeps } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/notice',
  tags: ['Notice'],
  summary: 'Publish a notice',
  request: { body: { required: true, content: { 'application/json': { schema: NoticePublishSchema } } } },
  responses: envelopeResponses(IdSchema),
});

export function register(ctx: RegisterContext, d: NoticeRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Notice' }, async (c) => {
    const id = await publishNotice(d.notices, c.req.valid('json'), c.get('principal')?.userId ?? null);
    return c.json(ok({ id }), 200);
  });
}
