/**
 * `GET /api/v1/sys/job/handlers`: the compiled handlers registered in code, whether the caller may write SQL jobs (they
 * are on and the caller is a super administrator) and whether private HTTP targets are allowed.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { jobActorOf } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/job/handlers',
  tags: ['Jobs'],
  summary: 'List job handlers',
  responses: envelopeResponses(
    z.object({
      handlers: z.array(z.object({ name: z.string(), description: z.string().nullable() })),
      sqlAllowed: z.boolean(),
      privateHttpAllowed: z.boolean(),
    }),
  ),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Job' }, async (c) => {
    return c.json(ok(d.jobs.service.handlers(jobActorOf(c))), 200);
  });
}
