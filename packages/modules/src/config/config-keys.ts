/**
 * Config keys only the super admin writes: the external-login switches decide who becomes a user and with which
 * roles (`provisioning`, `defaultRoleIds`, `defaultOrgId`) and whom an outside identity signs in as
 * (`linkByAccount`), so writing them is handing out roles and accounts beyond any rank or scope check. Every way a
 * value comes to life is a write: the config routes and the recycle bin's restore.
 */
import { BusinessError, ErrorCode } from '@svc/kernel';

const SUPER_ADMIN_KEYS = /^sys\.externalauth\./i;

/** Refuses (41001, `args.reason` = `super-admin-key`) a write of such a key by anyone but the super admin. */
export function assertConfigKeyWritableBy(superAdmin: boolean, key: string): void {
  if (SUPER_ADMIN_KEYS.test(key.trim()) && !superAdmin)
    throw new BusinessError(ErrorCode.NoPermission, { reason: 'super-admin-key', key });
}
