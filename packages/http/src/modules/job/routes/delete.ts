/** `DELETE /api/v1/sys/job/{id}`: soft-deletes a job (47010 for a system job). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { jobActorOf } from './schemas.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/job/{id}',
  tags: ['Jobs'],
  summary: 'Delete a scheduled job',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    await d.jobs.service.remove([c.req.valid('param').id], jobActorOf(c));
    return c.json(ok(null), 200);
  });
}
