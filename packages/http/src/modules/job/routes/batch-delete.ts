/** `POST /api/v1/sys/job/batch-delete`: soft-deletes several jobs; a system job among them refuses the batch (47010). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { jobActorOf } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/job/batch-delete',
  tags: ['Jobs'],
  summary: 'Delete several scheduled jobs',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z
            .object({
              ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(1000),
            })
            .strict(),
        },
      },
    },
  },
  responses: envelopeResponses(z.object({ deleted: z.number().int() })),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    const deleted = await d.jobs.service.remove(c.req.valid('json').ids, jobActorOf(c));
    return c.json(ok({ deleted }), 200);
  });
}
