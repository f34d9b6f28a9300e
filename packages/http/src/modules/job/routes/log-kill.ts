/** `POST /api/v1/sys/job/log/{id}/kill`: stops a running run on whichever instance holds it (47007 when it is not alive). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/job/log/{id}/kill',
  tags: ['Jobs'],
  summary: 'Kill a job run',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    await d.jobs.service.kill(c.req.valid('param').id);
    return c.json(ok(null), 200);
  });
}
