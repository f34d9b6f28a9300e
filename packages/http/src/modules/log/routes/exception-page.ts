/**
 * `GET /api/v1/sys/log/exception/page`: the exception log, newest first. Its rows belong to no user, so only a
 * caller of scope All (or the super admin) reads them; any other caller gets an empty page, as the operation log
 * shows them no rows without a user (a read, so no 41005). `traceId` finds a row by its own trace id or by any
 * of those it folded in (contract §11).
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { scopeOf } from '../../../security/principal.js';
import type { LogRouteDeps } from '../services.js';
import { ExceptionLogSchema, exceptionLogDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/log/exception/page',
  tags: ['Log'],
  summary: 'List exception logs',
  description:
    'Identical exceptions within a minute are folded into a second row whose message starts `[repeated N times in 60 s]`; `traceId` finds a row by its own trace id or by any it folded in.',
  request: {
    query: pageQuerySchema({
      traceId: textParam
        .optional()
        .openapi({ description: "A request's trace id (`X-Trace-Id`): exact, any case." }),
    }),
  },
  responses: envelopeResponses(pageSchema(ExceptionLogSchema)),
});

export function register(ctx: RegisterContext, d: Pick<LogRouteDeps, 'exceptionLogs' | 'scopes'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Log' }, async (c) => {
    const query = c.req.valid('query');
    const page = await d.exceptionLogs.page(query, await scopeOf(c, d.scopes));
    return c.json(ok(mapPage(page, exceptionLogDto)), 200);
  });
}
