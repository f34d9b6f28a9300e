/**
 * Module `Import`: Excel import and export, the user import wizard, the user export and the operation-log export.
 * It comes before `Admin` in the built-in list, so its routes register before the user `{id}` routes
 * (`/sys/user/export` must not be taken for an id); it builds its services once from the core and the Admin
 * module's administration services. The import routes have their own body limit (`Service:Import:MaxFileSizeMb`,
 * app.ts).
 */
import { createUserImportService, ImportErrorCode } from '@svc/modules';
import { defineModule } from '../../module/define.js';
import { LOGGED_READS, SUMMARISED_BODIES } from '../../ops/op-log.js';
import { adminModule } from '../admin/index.js';
import * as opLogExport from './routes/op-log-export.js';
import * as userCommit from './routes/user-commit.js';
import * as userErrorReport from './routes/user-error-report.js';
import * as userExport from './routes/user-export.js';
import * as userPreview from './routes/user-preview.js';
import * as userTemplate from './routes/user-template.js';
import * as userValidate from './routes/user-validate.js';
import type { ImportRouteDeps } from './services.js';

export type { ImportRouteDeps } from './services.js';

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

export const importModule = defineModule({
  name: 'Import',
  errorCodes: [ImportErrorCode],
  dependsOn: [adminModule],
  services: ({ core, use }): ImportRouteDeps => ({
    admin: use(adminModule).admin,
    imports: createUserImportService({
      repos: core.repos,
      sessions: core.sessions,
      permissions: core.permissions,
      config: core.config,
      errors: core.errors,
      settings: core.security.settings,
      now: core.now,
    }),
    opLogs: core.repos.opLogs,
    options: core.config.service.Import,
    logger: core.logger,
  }),
  routes: [userTemplate, userPreview, userValidate, userErrorReport, userCommit, userExport, opLogExport],
});
