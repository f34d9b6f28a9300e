/** `POST /api/v1/sys/job/log/clear`: deletes the run log (of one job with `jobId`), keeping running rows. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/job/log/clear',
  tags: ['Jobs'],
  summary: 'Clear the job run log',
  request: {
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z
            .object({ jobId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() })
            .strict(),
        },
      },
    },
  },
  responses: envelopeResponses(z.object({ cleared: z.number().int() })),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    const body = (c.req.valid('json') ?? {}) as { jobId?: number };
    return c.json(ok({ cleared: await d.jobs.service.clearLog(body.jobId) }), 200);
  });
}
