/** What the import/export route files receive (module `Import`). */
import type { AdminActor, AdminServices } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import type { HttpDeps } from '../../deps.js';
import type { UserImportService } from '../../excel/users-import.js';
import { requirePrincipal } from '../../security/principal.js';

export interface ExcelRouteDeps {
  http: HttpDeps;
  admin: AdminServices;
  imports: UserImportService;
}

export function importActorOf(c: Context<AppEnv>, d: ExcelRouteDeps): AdminActor {
  return d.admin.actorOf(requirePrincipal(c));
}
