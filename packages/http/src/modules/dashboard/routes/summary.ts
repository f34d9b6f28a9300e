/** `GET /api/v1/dashboard/summary`: counts and the 7-day login trend within the caller's data scope. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { AdminRouteDeps } from '../../admin/services.js';

const seven = <T extends z.ZodType>(item: T) => z.array(item).length(7);

export const DashboardSummarySchema = z
  .object({
    roles: z.number().int(),
    users: z.number().int().openapi({ description: "Live users inside the caller's data scope." }),
    perms: z.number().int().openapi({ description: 'Distinct permission codes carried by live menus.' }),
    onlineSessions: z
      .number()
      .int()
      .openapi({ description: "Online sessions of users inside the caller's scope." }),
    trendDays: seven(z.string()).openapi({
      description: '`MM-dd` of the last seven UTC days, oldest first.',
    }),
    trendLogins: seven(z.number().int()).openapi({ description: 'Successful logins per day.' }),
    trendActiveUsers: seven(z.number().int()).openapi({ description: 'Distinct users signed in per day.' }),
  })
  .openapi('DashboardSummary');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/dashboard/summary',
  tags: ['Dashboard'],
  summary: 'Dashboard summary',
  responses: envelopeResponses(DashboardSummarySchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    return c.json(ok(await deps.admin.dashboard.summary(deps.admin.actorOf(requirePrincipal(c)))), 200);
  });
}
