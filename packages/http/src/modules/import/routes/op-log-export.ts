/**
 * `GET /api/v1/sys/log/op/export` (filters + `columns`): the operation log as a streamed workbook, newest
 * first (by id), within the caller's data scope as the page is: the rows there were when it started, each once. The export itself is written to the operation log (its `opLog: { read: true }`).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { SysOpLogRow } from '@svc/data';
import { EXPORT_PAGE_SIZE, type ExportColumn, pickColumns, streamWorkbook } from '@svc/modules';
import { boolParam, querySchema } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { commonErrorResponses, ErrorEnvelopeSchema } from '../../../openapi/schemas.js';
import { type ImportRouteDeps, importActorOf } from '../services.js';

export const OpLogExportPath = '/api/v1/sys/log/op/export';

export const OP_LOG_EXPORT_COLUMNS: readonly ExportColumn<SysOpLogRow>[] = [
  { key: 'id', header: 'Id', value: (r) => r.id },
  { key: 'title', header: 'Title', value: (r) => r.title },
  { key: 'httpMethod', header: 'Method', value: (r) => r.httpMethod },
  { key: 'path', header: 'Path', value: (r) => r.path },
  { key: 'paramJson', header: 'Parameters', value: (r) => r.paramJson },
  { key: 'resultCode', header: 'Result code', value: (r) => r.resultCode },
  { key: 'success', header: 'Success', value: (r) => r.success },
  { key: 'elapsedMs', header: 'Elapsed ms', value: (r) => r.elapsedMs },
  { key: 'operatorId', header: 'Operator id', value: (r) => r.operatorId },
  { key: 'operatorName', header: 'Operator', value: (r) => r.operatorName },
  { key: 'ip', header: 'IP', value: (r) => r.ip },
  { key: 'userAgent', header: 'User agent', value: (r) => r.userAgent },
  { key: 'traceId', header: 'Trace id', value: (r) => r.traceId },
  { key: 'createTime', header: 'Time', value: (r) => r.createTime.toISOString() },
];

export const route = createRoute({
  method: 'get',
  path: OpLogExportPath,
  tags: ['Import'],
  summary: 'Export operation logs',
  request: {
    query: querySchema({
      success: boolParam.optional(),
      columns: z
        .string()
        .max(1000)
        .optional()
        .openapi({
          description: `Comma-separated column keys: ${OP_LOG_EXPORT_COLUMNS.map((c) => c.key).join(', ')}.`,
        }),
    }),
  },
  responses: {
    200: {
      description: 'The workbook (streamed); failures answer the envelope (46012, 46013).',
      content: {
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          schema: z.any().openapi({ type: 'string', format: 'binary' }),
        },
        'application/json': { schema: ErrorEnvelopeSchema },
      },
    },
    ...commonErrorResponses,
  },
});

export function register(
  ctx: RegisterContext,
  d: Pick<ImportRouteDeps, 'admin' | 'opLogs' | 'options' | 'logger'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', opLog: { read: true } }, async (c) => {
    const { columns, success } = c.req.valid('query');
    const picked = pickColumns(OP_LOG_EXPORT_COLUMNS, columns);
    const scope = await importActorOf(c, d).scope();
    const logger = d.logger;
    return streamWorkbook({
      sheet: 'Operation log',
      fileName: 'op-log.xlsx',
      columns: picked,
      maxRows: d.options.ExportMaxRows,
      firstPage: () =>
        d.opLogs.page(
          { success, current: 1, size: EXPORT_PAGE_SIZE, sortField: 'id', sortOrder: 'desc' },
          scope,
        ),
      // By id, not by offset: the log grows while it is exported (this export's own row among the first), and a
      // page by offset would then repeat the rows each new one pushed down.
      nextPage: (last) => d.opLogs.rowsBefore(last.id, EXPORT_PAGE_SIZE, { success }, scope),
      onError: (error) => logger.error('operation log export failed midway', { error }),
    });
  });
}
