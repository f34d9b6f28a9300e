/** `GET /api/v1/sys/job/page`: jobs, filters `name` (contains), `status`, `handlerKind`; secrets in props show as `***`. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { intParam, mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { JobRowSchema, jobDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/job/page',
  tags: ['Jobs'],
  summary: 'List scheduled jobs',
  request: {
    query: pageQuerySchema({
      name: textParam.optional(),
      status: intParam.pipe(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)])).optional(),
      handlerKind: intParam.pipe(z.union([z.literal(1), z.literal(2), z.literal(3)])).optional(),
    }),
  },
  responses: envelopeResponses(pageSchema(JobRowSchema)),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Job' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(mapPage(await d.jobs.service.page(query), jobDto)), 200);
  });
}
