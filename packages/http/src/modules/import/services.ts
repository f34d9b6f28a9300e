/** What the import/export route files receive (module `Import`), built once by the module. */
import type { Repositories } from '@svc/data';
import type { Configuration, Logger } from '@svc/kernel';
import type { UserImportService } from '@svc/modules';
import type { AdminActor, AdminServices } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { requirePrincipal } from '../../security/principal.js';

export interface ImportRouteDeps {
  /** The Admin module's administration services: the caller as an actor, the user page the export reads. */
  admin: AdminServices;
  imports: UserImportService;
  /** The operation log the op-log export reads. */
  opLogs: Repositories['opLogs'];
  /** `Service:Import` (row limits of the error report and the exports). */
  options: Configuration['service']['Import'];
  /** Logs an export that fails midway. */
  logger: Logger;
}

export function importActorOf(c: Context<AppEnv>, d: Pick<ImportRouteDeps, 'admin'>): AdminActor {
  return d.admin.actorOf(requirePrincipal(c));
}
