/**
 * `PUT /api/v1/sys/job/{id}`: changes a job (not its code); the next fire is recomputed. `***` in props keeps the
 * secret stored there; a job becoming or being a SQL job needs a super administrator (41001).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { JobUpdateSchema, jobActorOf, jobInput } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/job/{id}',
  tags: ['Jobs'],
  summary: 'Update a scheduled job',
  request: {
    params: z.object({ id: idPath }),
    body: { required: true, content: { 'application/json': { schema: JobUpdateSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    await d.jobs.service.update(c.req.valid('param').id, jobInput(c.req.valid('json')), jobActorOf(c));
    return c.json(ok(null), 200);
  });
}
