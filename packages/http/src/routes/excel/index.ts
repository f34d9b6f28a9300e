/**
 * Excel import and export (module `Import` of `Service:Api:DisabledModules`): the user import wizard, the user
 * export and the operation-log export. Registered before the user `{id}` routes (`/sys/user/export` must not be
 * taken for an id). The import routes have their own body limit (`Service:Import:MaxFileSizeMb`, app.ts).
 */
import { adminServicesFor } from '../../admin/services.js';
import type { HttpDeps } from '../../deps.js';
import { createUserImportService } from '../../excel/users-import.js';
import type { RegisterContext } from '../../openapi/register.js';
import { LOGGED_READS, SUMMARISED_BODIES } from '../../ops/op-log.js';
import * as opLogExport from './op-log-export.js';
import type { ExcelRouteDeps } from './route-deps.js';
import * as userCommit from './user-commit.js';
import * as userErrorReport from './user-error-report.js';
import * as userExport from './user-export.js';
import * as userPreview from './user-preview.js';
import * as userTemplate from './user-template.js';
import * as userValidate from './user-validate.js';

/** Paths of the import routes whose bodies may reach `Service:Import:MaxFileSizeMb`. */
export const IMPORT_BODY_PATHS = [
  userPreview.ImportPreviewPath,
  userValidate.ImportValidatePath,
  userErrorReport.ImportErrorReportPath,
  userCommit.ImportCommitPath,
] as const;

LOGGED_READS.add(userExport.UserExportPath);
LOGGED_READS.add(opLogExport.OpLogExportPath);

/** The operation log gets an import request's size and strategy, never its rows of personal data. */
function importSummary(body: unknown): Record<string, unknown> {
  const { rows, strategy } = (body ?? {}) as { rows?: unknown; strategy?: unknown };
  return {
    rows: Array.isArray(rows) ? rows.length : null,
    ...(typeof strategy === 'number' ? { strategy } : {}),
  };
}
for (const path of [
  userValidate.ImportValidatePath,
  userErrorReport.ImportErrorReportPath,
  userCommit.ImportCommitPath,
])
  SUMMARISED_BODIES.set(path, importSummary);

export function registerExcelRoutes(ctx: RegisterContext, deps: HttpDeps): void {
  const d: ExcelRouteDeps = {
    http: deps,
    admin: adminServicesFor(deps),
    imports: createUserImportService(deps),
  };
  for (const route of [
    userTemplate,
    userPreview,
    userValidate,
    userErrorReport,
    userCommit,
    userExport,
    opLogExport,
  ])
    route.register({ ...ctx, module: 'Import' }, d);
}
