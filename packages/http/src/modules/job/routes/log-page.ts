/** `GET /api/v1/sys/job/log/page`: the run log, newest first; filters `jobId`, `jobName`, `runStatus`, `fireMode`. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idParam, mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { FireModeSchema, JobLogRowSchema, jobLogDto, RunStatusSchema } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/job/log/page',
  tags: ['Jobs'],
  summary: 'List job runs',
  request: {
    query: pageQuerySchema({
      jobId: idParam.optional(),
      jobName: textParam.optional(),
      runStatus: RunStatusSchema.optional(),
      fireMode: FireModeSchema.optional(),
    }),
  },
  responses: envelopeResponses(pageSchema(JobLogRowSchema)),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Job' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(mapPage(await d.jobs.service.logPage(query), jobLogDto)), 200);
  });
}
