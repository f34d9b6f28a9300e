/** What every operations route file receives: the server's deps and its operations services. */
import type { DataScopeFilter } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import type { HttpDeps } from '../../deps.js';
import { adminModule } from '../../modules/admin/index.js';
import { assertConfigKeyWritableBy } from '../../ops/config-keys.js';
import type { OpsServices } from '../../ops/services.js';
import { requirePrincipal } from '../../security/principal.js';

export interface OpsRouteDeps {
  http: HttpDeps;
  ops: OpsServices;
}

/** The acting user id of the request (audit columns), null for an unbound API key. */
export const actorOf = (c: Context<AppEnv>): number | null => c.get('principal')?.userId ?? null;

/** The caller's data scope (files follow their uploader's, contract §10). */
export const scopeOf = (c: Context<AppEnv>, d: OpsRouteDeps): Promise<DataScopeFilter> =>
  d.http.modules.servicesOf(adminModule).admin.scopes.forPrincipal(requirePrincipal(c));

/**
 * Refuses (41005, `reason: clear-beyond-scope`) a caller whose data scope is narrower than All; the super admin's
 * scope is All. For writes that take every row of a table, those outside any narrower scope and those without a
 * user too (clearing a log: a Self caller holding the code had wiped everyone's audit trail).
 */
export async function assertScopeAll(c: Context<AppEnv>, d: OpsRouteDeps): Promise<void> {
  if (!(await scopeOf(c, d)).all)
    throw new BusinessError(ErrorCode.OutOfDataScope, { reason: 'clear-beyond-scope' });
}

export function assertConfigKeyWritable(c: Context<AppEnv>, key: string): void {
  const principal = c.get('principal');
  assertConfigKeyWritableBy(principal?.kind === 'user' && principal.isSuperAdmin, key);
}
