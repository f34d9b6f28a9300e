/** `GET /api/v1/sys/user/import/template`: the import workbook; dictionary columns offer drop-downs. */
import { createRoute } from '@hono/zod-openapi';
import { xlsxResponse } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { commonErrorResponses } from '../../../openapi/schemas.js';
import type { ImportRouteDeps } from '../services.js';
import { XlsxResponse } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/user/import/template',
  tags: ['Import'],
  summary: 'User import template',
  responses: { 200: XlsxResponse('The template workbook.'), ...commonErrorResponses },
});

export function register(ctx: RegisterContext, d: Pick<ImportRouteDeps, 'imports'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async () =>
    xlsxResponse(await d.imports.template(), 'user-import-template.xlsx'),
  );
}
