/**
 * `GET /api/v1/sys/user/export` (the page filters + `columns`): the users inside the caller's data scope as a
 * streamed workbook; 46013 for an unknown column, 46012 above `Service:Import:ExportMaxRows`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { UserItem } from '@svc/security';
import { EXPORT_PAGE_SIZE, type ExportColumn, pickColumns, streamWorkbook } from '../../excel/export.js';
import { boolParam, idParam, querySchema, textParam } from '../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { commonErrorResponses, ErrorEnvelopeSchema } from '../../openapi/schemas.js';
import { type ExcelRouteDeps, importActorOf } from './route-deps.js';

export const UserExportPath = '/api/v1/sys/user/export';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const USER_EXPORT_COLUMNS: readonly ExportColumn<UserItem>[] = [
  { key: 'id', header: 'Id', value: (u) => u.id },
  { key: 'account', header: 'Account', value: (u) => u.account },
  { key: 'realName', header: 'Real name', value: (u) => u.realName },
  { key: 'nickName', header: 'Nick name', value: (u) => u.nickName },
  { key: 'orgId', header: 'Organisation id', value: (u) => u.orgId },
  { key: 'positionId', header: 'Position id', value: (u) => u.positionId },
  { key: 'phone', header: 'Phone', value: (u) => u.phone },
  { key: 'email', header: 'Email', value: (u) => u.email },
  { key: 'gender', header: 'Gender', value: (u) => u.gender },
  { key: 'enabled', header: 'Enabled', value: (u) => u.enabled },
  { key: 'roleIds', header: 'Role ids', value: (u) => u.roleIds.join(',') },
  { key: 'remark', header: 'Remark', value: (u) => u.remark },
  { key: 'lastLoginTime', header: 'Last login', value: (u) => iso(u.lastLoginTime) },
  { key: 'createTime', header: 'Created', value: (u) => iso(u.createTime) },
];

export const route = createRoute({
  method: 'get',
  path: UserExportPath,
  tags: ['Import'],
  summary: 'Export users',
  request: {
    query: querySchema({
      account: textParam.optional(),
      name: textParam.optional(),
      orgId: idParam.optional().openapi({ type: 'integer' }),
      roleId: idParam.optional().openapi({ type: 'integer' }),
      enabled: boolParam.optional().openapi({ type: 'boolean' }),
      columns: z
        .string()
        .max(1000)
        .optional()
        .openapi({
          description: `Comma-separated column keys: ${USER_EXPORT_COLUMNS.map((c) => c.key).join(', ')}.`,
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

export function register(ctx: RegisterContext, d: ExcelRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const { columns, ...filters } = c.req.valid('query');
    const picked = pickColumns(USER_EXPORT_COLUMNS, columns);
    const actor = importActorOf(c, d);
    const logger = d.http.logger;
    const usersPage = (afterId?: number) =>
      d.admin.users.page(actor, {
        ...filters,
        afterId,
        current: 1,
        size: EXPORT_PAGE_SIZE,
        sortField: 'id',
        sortOrder: 'asc',
      });
    return streamWorkbook({
      sheet: 'Users',
      fileName: 'users.xlsx',
      columns: picked,
      maxRows: d.http.config.service.Import.ExportMaxRows,
      // Oldest first, the pages after the first by id (the users above the last one written), not by offset: a
      // user deleted meanwhile would move a row of a later page into one already written, and it would be missing.
      firstPage: () => usersPage(),
      nextPage: async (last) => (await usersPage(last.id)).items,
      onError: (error) => logger.error('user export failed midway', { error }),
    });
  });
}
