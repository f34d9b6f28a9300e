/**
 * Module `Import`: Excel import and export, the user import wizard, the user export and the operation-log export.
 * It comes before `Admin` in the built-in list, so its routes register before the user `{id}` routes
 * (`/sys/user/export` must not be taken for an id); it builds its services once from the core and the Admin
 * module's administration services. Each route declares its request policy in its own options: the import
 * routes their body limit (`Service:Import:MaxFileSizeMb`) and, with JSON rows, a body summary for the
 * operation log (`importRowsPolicy`, services.ts); the exports that their reads are logged.
 */
import {
  createUserImportService,
  excelLibraryNeeds,
  ImportErrorCode,
  importExcel,
  importOptions,
  MODULE_PEERS_FROM,
} from '@svc/modules';
import { defineModule, moduleOptions } from '../../module/define.js';
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

export const importModule = defineModule({
  name: 'Import',
  options: moduleOptions('Import', importOptions),
  errorCodes: [ImportErrorCode],
  dependsOn: [adminModule],
  libraries: () => [{ needs: excelLibraryNeeds(), load: importExcel, from: MODULE_PEERS_FROM }],
  services: ({ core, options, use }): ImportRouteDeps => ({
    admin: use(adminModule).admin,
    imports: createUserImportService({
      repos: core.repos,
      sessions: core.sessions,
      permissions: core.permissions,
      config: core.config,
      options,
      errors: core.errors,
      settings: core.security.settings,
      now: core.now,
    }),
    opLogs: core.repos.opLogs,
    options,
    maxBodyBytes: options.MaxFileSizeMb * 1024 * 1024,
    logger: core.logger,
  }),
  routes: [userTemplate, userPreview, userValidate, userErrorReport, userCommit, userExport, opLogExport],
});
