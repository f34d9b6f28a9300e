/** `POST /api/v1/sys/user/import/error-report` `{rows}`: the rows as a workbook with an errors column. */
import { createRoute } from '@hono/zod-openapi';
import { BusinessError } from '@svc/kernel';
import { ImportErrorCode, xlsxResponse } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { commonErrorResponses, ErrorEnvelopeSchema } from '../../../openapi/schemas.js';
import { type ImportRouteDeps, importRowsPolicy } from '../services.js';
import { ImportRowsBodySchema } from './schemas.js';

export const ImportErrorReportPath = '/api/v1/sys/user/import/error-report';

export const route = createRoute({
  method: 'post',
  path: ImportErrorReportPath,
  tags: ['Import'],
  summary: 'User import error report',
  request: { body: { required: true, content: { 'application/json': { schema: ImportRowsBodySchema } } } },
  responses: {
    200: {
      description: 'The workbook; failures answer the envelope.',
      content: {
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          schema: { type: 'string', format: 'binary' },
        },
        'application/json': { schema: ErrorEnvelopeSchema },
      },
    },
    ...commonErrorResponses,
  },
});

export function register(
  ctx: RegisterContext,
  d: Pick<ImportRouteDeps, 'imports' | 'options' | 'maxBodyBytes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', ...importRowsPolicy(d) }, async (c) => {
    const rows = c.req.valid('json').rows;
    const max = d.options.MaxRows;
    if (rows.length > max)
      throw new BusinessError(ImportErrorCode.ImportRowLimitExceeded, { rows: rows.length, max });
    const report = await d.imports.errorReport(rows.map((r) => ({ ...r, errors: r.errors ?? [] })));
    return xlsxResponse(report, 'user-import-errors.xlsx');
  });
}
