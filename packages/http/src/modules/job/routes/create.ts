/**
 * `POST /api/v1/sys/job`: a new job (47002 code taken, 47003/47004 trigger, 47005 handler, 47008 SQL off, 41001 a SQL job
 * by anyone but a super administrator, 47009 HTTP target fenced, 48000 `***` in props where no secret is stored).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { JobServices } from '../services.js';
import { JobCreateSchema, jobActorOf, jobInput } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/job',
  tags: ['Jobs'],
  summary: 'Create a scheduled job',
  request: { body: { required: true, content: { 'application/json': { schema: JobCreateSchema } } } },
  responses: envelopeResponses(z.object({ id: z.number().int() })),
});

export function register(ctx: RegisterContext, d: Pick<JobServices, 'jobs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Job' }, async (c) => {
    const body = c.req.valid('json');
    const id = await d.jobs.service.create({ ...jobInput(body), code: body.code }, jobActorOf(c));
    return c.json(ok({ id }), 200);
  });
}
