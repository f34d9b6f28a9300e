/** What the import/export route files receive (module `Import`), built once by the module. */
import type { Repositories } from '@svc/data';
import type { Logger } from '@svc/kernel';
import type { ImportOptions, UserImportService } from '@svc/modules';
import type { AdminActor, AdminServices } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import type { RoutePolicy } from '../../openapi/policy.js';
import { requirePrincipal } from '../../security/principal.js';

export interface ImportRouteDeps {
  /** The Admin module's administration services: the caller as an actor, the user page the export reads. */
  admin: AdminServices;
  imports: UserImportService;
  /** The operation log the op-log export reads. */
  opLogs: Repositories['opLogs'];
  /** `Service:Import` (row limits of the error report and the exports). */
  options: ImportOptions;
  /** `Service:Import:MaxFileSizeMb` in bytes: the body limit of the import routes. */
  maxBodyBytes: number;
  /** Logs an export that fails midway. */
  logger: Logger;
}

/**
 * The request policy of the import routes with JSON rows (validate, error report, commit): bodies up to
 * `Service:Import:MaxFileSizeMb` (10,000 rows), and the operation log gets a request's size and strategy, never
 * its rows of personal data (a request a guard refuses or validation rejects included).
 */
export const importRowsPolicy = (d: Pick<ImportRouteDeps, 'maxBodyBytes'>): RoutePolicy => ({
  bodyLimit: d.maxBodyBytes,
  opLog: IMPORT_ROWS_LOG,
});

const IMPORT_ROWS_LOG: NonNullable<RoutePolicy['opLog']> = {
  summary(body) {
    const { rows, strategy } = (body ?? {}) as { rows?: unknown; strategy?: unknown };
    return {
      rows: Array.isArray(rows) ? rows.length : null,
      ...(typeof strategy === 'number' ? { strategy } : {}),
    };
  },
};

export function importActorOf(c: Context<AppEnv>, d: Pick<ImportRouteDeps, 'admin'>): AdminActor {
  return d.admin.actorOf(requirePrincipal(c));
}
