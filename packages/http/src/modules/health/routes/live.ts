/** `GET /health`: process liveness only, plain `Healthy`. */
import { createRoute, z } from '@hono/zod-openapi';
import type { RegisterContext } from '../../../openapi/register.js';
import { registerRoute } from '../../../openapi/register.js';

export const route = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Health'],
  summary: 'Liveness probe',
  responses: {
    200: { description: 'The process answers.', content: { 'text/plain': { schema: z.literal('Healthy') } } },
  },
});

export function register(ctx: RegisterContext): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, (c) => c.text('Healthy', 200));
}
