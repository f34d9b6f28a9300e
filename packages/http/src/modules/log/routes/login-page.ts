/**
 * `GET /api/v1/sys/log/login/page`: the login log, newest first; filters `account` (contains) and `method` (one of
 * `LOGIN_METHODS`, exactly; another value answers 48000 naming it); only attempts on
 * accounts within the caller's data scope (unknown accounts: an All scope only).
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { scopeOf } from '../../../security/principal.js';
import type { LogRouteDeps } from '../services.js';
import { LoginLogSchema, LoginMethodSchema, loginLogDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/log/login/page',
  tags: ['Log'],
  summary: 'List login logs',
  request: {
    query: pageQuerySchema({ account: textParam.optional(), method: LoginMethodSchema.optional() }),
  },
  responses: envelopeResponses(pageSchema(LoginLogSchema)),
});

export function register(ctx: RegisterContext, d: Pick<LogRouteDeps, 'loginLogs' | 'scopes'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Log' }, async (c) => {
    const query = c.req.valid('query');
    const page = await d.loginLogs.page(query, await scopeOf(c, d.scopes));
    return c.json(ok(mapPage(page, loginLogDto)), 200);
  });
}
