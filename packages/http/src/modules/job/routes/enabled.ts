/** `PUT /api/v1/sys/job/{id}/enabled?enabled=`: pause (Ready/Panic → Paused) or resume (Paused/Panic → Ready, next fire from now); 47010 otherwise. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { boolParam, idPath, querySchema } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { jobActorOf } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/job/{id}/enabled',
  tags: ['Jobs'],
  summary: 'Pause or resume a scheduled job',
  request: { params: z.object({ id: idPath }), query: querySchema({ enabled: boolParam }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    await d.jobs.service.setEnabled(c.req.valid('param').id, c.req.valid('query').enabled, jobActorOf(c));
    return c.json(ok(null), 200);
  });
}
