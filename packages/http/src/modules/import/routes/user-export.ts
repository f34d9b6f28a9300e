/**
 * `GET /api/v1/sys/user/export` (the page filters + `columns`): the users inside the caller's data scope as a
 * streamed workbook; 46013 for an unknown column, 46012 above `Service:Import:ExportMaxRows`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  EXPORT_PAGE_SIZE,
  type ExportColumn,
  type ExportNames,
  pickColumns,
  streamWorkbook,
  USER_IMPORT_COLUMNS,
} from '@svc/modules';
import type { UserItem } from '@svc/security';
import { boolParam, idParam, querySchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { commonErrorResponses, ErrorEnvelopeSchema } from '../../../openapi/schemas.js';
import { type ImportRouteDeps, importActorOf } from '../services.js';

export const UserExportPath = '/api/v1/sys/user/export';

/**
 * The import template's columns, in its order and with its headers, holding what an import reads (contract §11):
 * codes, not ids, and dictionary labels, so an exported workbook can be imported again.
 */
export function userExportColumns(names: ExportNames): ExportColumn<UserItem>[] {
  const code = (map: Map<number, string>, id: number | null) => (id === null ? null : (map.get(id) ?? null));
  const label = (dict: string, value: string) => names.dicts.get(dict)?.get(value) ?? value;
  const values: Record<string, (u: UserItem) => string | null> = {
    account: (u) => u.account,
    realName: (u) => u.realName,
    nickName: (u) => u.nickName,
    orgCode: (u) => code(names.orgs, u.orgId),
    positionCode: (u) => code(names.positions, u.positionId),
    roleCodes: (u) => u.roleIds.flatMap((id) => names.roles.get(id) ?? []).join(','),
    phone: (u) => u.phone,
    email: (u) => u.email,
    gender: (u) => label('gender', String(u.gender)),
    enabled: (u) => label('common_status', u.enabled ? '1' : '0'),
    remark: (u) => u.remark,
  };
  return USER_IMPORT_COLUMNS.map((c) => ({
    key: c.key,
    header: c.header,
    value: values[c.key] ?? (() => null),
  }));
}

export const USER_EXPORT_COLUMN_KEYS = USER_IMPORT_COLUMNS.map((c) => c.key);

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
          description: `Comma-separated column keys (the import template's): ${USER_EXPORT_COLUMN_KEYS.join(', ')}.`,
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
  d: Pick<ImportRouteDeps, 'admin' | 'imports' | 'options' | 'logger'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', opLog: { read: true } }, async (c) => {
    const { columns, ...filters } = c.req.valid('query');
    const picked = pickColumns(userExportColumns(await d.imports.exportNames()), columns);
    const actor = importActorOf(c, d);
    const logger = d.logger;
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
      maxRows: d.options.ExportMaxRows,
      // Oldest first, the pages after the first by id (the users above the last one written), not by offset: a
      // user deleted meanwhile would move a row of a later page into one already written, and it would be missing.
      firstPage: () => usersPage(),
      nextPage: async (last) => (await usersPage(last.id)).items,
      onError: (error) => logger.error('user export failed midway', { error }),
    });
  });
}
