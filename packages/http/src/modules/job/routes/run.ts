/**
 * `POST /api/v1/sys/job/{id}/run`: runs the job once now on this instance (fire mode `manual`); 47006 while a serial job
 * runs, or while a parallel job has `Service:Jobs:MaxParallelRuns` runs alive (`args` `{id, running, maxParallel}`);
 * the running row is written before the answer. 41001 for a SQL job unless a super administrator asks.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { jobActorOf } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/job/{id}/run',
  tags: ['Jobs'],
  summary: 'Run a scheduled job now',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.object({ fireInstanceId: z.string() })),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    const fireInstanceId = await d.jobs.service.run(c.req.valid('param').id, jobActorOf(c));
    return c.json(ok({ fireInstanceId }), 200);
  });
}
