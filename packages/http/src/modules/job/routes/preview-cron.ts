/** `POST /api/v1/sys/job/preview-cron`: the normalised expression and its next fire times (UTC), or 47003 with `args.reason`. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/job/preview-cron',
  tags: ['Jobs'],
  summary: 'Preview a cron expression',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z
            .object({ cron: z.string().max(128), count: z.number().int().min(1).max(50).optional() })
            .strict(),
        },
      },
    },
  },
  responses: envelopeResponses(
    z.object({ cron: z.string(), nextFireTimes: z.array(z.string().openapi({ format: 'date-time' })) }),
  ),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Job' }, async (c) => {
    const body = c.req.valid('json');
    const preview = d.jobs.service.previewCron(body.cron, body.count ?? 5);
    return c.json(
      ok({ cron: preview.cron, nextFireTimes: preview.nextFireTimes.map((t) => t.toISOString()) }),
      200,
    );
  });
}
