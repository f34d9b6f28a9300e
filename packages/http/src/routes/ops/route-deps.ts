/** What every operations route file receives: the server's deps and its operations services. */
import type { DataScopeFilter } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { Context } from 'hono';
import { adminServicesFor } from '../../admin/services.js';
import type { AppEnv } from '../../context.js';
import type { HttpDeps } from '../../deps.js';
import type { OpsServices } from '../../ops/services.js';
import { requirePrincipal } from '../../security/principal.js';

export interface OpsRouteDeps {
  http: HttpDeps;
  ops: OpsServices;
  /** `Service:Api:MaxPageSize`. */
  maxPageSize: number;
}

/** The acting user id of the request (audit columns), null for an unbound API key. */
export const actorOf = (c: Context<AppEnv>): number | null => c.get('principal')?.userId ?? null;

/** The caller's data scope (files follow their uploader's, contract §10). */
export const scopeOf = (c: Context<AppEnv>, d: OpsRouteDeps): Promise<DataScopeFilter> =>
  adminServicesFor(d.http).scopes.forPrincipal(requirePrincipal(c));

/**
 * Config keys only the super admin writes: the external-login switches decide who becomes a user and with which
 * roles (`provisioning`, `defaultRoleIds`, `defaultOrgId`) and whom an outside identity signs in as
 * (`linkByAccount`), so writing them is handing out roles and accounts beyond any rank or scope check.
 */
const SUPER_ADMIN_KEYS = /^sys\.externalauth\./i;

/** Refuses (41001, `args.reason` = `super-admin-key`) a write of such a key by anyone but the super admin. */
export function assertConfigKeyWritable(c: Context<AppEnv>, key: string): void {
  const principal = c.get('principal');
  const superAdmin = principal?.kind === 'user' && principal.isSuperAdmin;
  if (SUPER_ADMIN_KEYS.test(key.trim()) && !superAdmin)
    throw new BusinessError(ErrorCode.NoPermission, { reason: 'super-admin-key', key });
}
