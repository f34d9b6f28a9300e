/**
 * Users by phone number, for SMS login: `sys_user.phone` has no unique index (spec "User fields"), so a number
 * may name several users, and SMS login must tell one from many. Exact match on the stored text.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { SysUserRow } from '../rows.js';
import type { RepositoryContext } from './context.js';

export interface PhoneUserRepository {
  /**
   * Up to `limit` live (not soft-deleted) users whose phone equals `phone`, oldest first; only enabled ones
   * with `enabledOnly`. Ask for 2 to learn whether a number names exactly one user.
   */
  findLiveByPhone(phone: string, limit: number, options?: { enabledOnly?: boolean }): Promise<SysUserRow[]>;
}

export function createPhoneUserRepository({ db, adapter, tables }: RepositoryContext): PhoneUserRepository {
  const t = tables.sysUser;
  return {
    async findLiveByPhone(phone, limit, options) {
      if (phone === '' || limit <= 0) return [];
      return adapter.page(
        db
          .select()
          .from(t)
          .where(
            and(
              eq(t.phone, phone),
              eq(t.isDelete, false),
              options?.enabledOnly ? eq(t.enabled, true) : undefined,
            ),
          )
          .orderBy(asc(t.id)),
        0,
        limit,
      );
    },
  };
}
