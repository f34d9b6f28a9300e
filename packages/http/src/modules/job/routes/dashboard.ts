/** `GET /api/v1/sys/job/dashboard`: today's successes and failures (UTC day), runs in flight, jobs per status, 14-day trend, upcoming fires, nodes. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { DashboardSchema, dashboardDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/job/dashboard',
  tags: ['Jobs'],
  summary: 'Scheduled-job dashboard',
  responses: envelopeResponses(DashboardSchema),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Job' }, async (c) => {
    return c.json(ok(dashboardDto(await d.jobs.service.dashboard())), 200);
  });
}
