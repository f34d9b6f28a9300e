/**
 * Figures of the dashboard summary, each within a data scope: live users, online sessions (through the
 * online-session repository), roles and permission codes, and per-day successful logins and distinct users
 * from the login log. A day is one indexed range count, so the trend costs seven small queries on every
 * dialect rather than a date-truncating GROUP BY that each database spells differently.
 */
import { and, count, countDistinct, eq, gte, isNotNull, lt } from 'drizzle-orm';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, dataScopeCondition, userScopeCondition } from './data-scope.js';

/** One day of the login trend. */
export interface LoginDay {
  logins: number;
  activeUsers: number;
}

export interface DashboardRepository {
  /** Live users inside the scope. */
  countUsers(scope: DataScopeFilter): Promise<number>;
  /** Live roles. */
  countRoles(): Promise<number>;
  /** Permission texts of live menus (codes joined by `;`). */
  permissionTexts(): Promise<string[]>;
  /** Successful logins and distinct users per `[from, to)` range, of users inside the scope. */
  loginDays(scope: DataScopeFilter, ranges: readonly { from: Date; to: Date }[]): Promise<LoginDay[]>;
}

export function createDashboardRepository({ db, tables }: RepositoryContext): DashboardRepository {
  const { sysUser: u, sysRole: r, sysMenu: m, sysLoginLog: l } = tables;
  const usersIn = (scope: DataScopeFilter) => dataScopeCondition(scope, { org: u.orgId, owner: u.id });
  /** Log rows of users inside the scope, as the login-log page scopes them (deleted users' history counts). */
  const loggedBy = (scope: DataScopeFilter) => userScopeCondition(scope, l.userId, u);
  return {
    async countUsers(scope) {
      const [row] = await db
        .select({ n: count() })
        .from(u)
        .where(and(eq(u.isDelete, false), usersIn(scope)));
      return Number(row?.n ?? 0);
    },

    async countRoles() {
      const [row] = await db.select({ n: count() }).from(r).where(eq(r.isDelete, false));
      return Number(row?.n ?? 0);
    },

    async permissionTexts() {
      const rows = await db
        .select({ permission: m.permission })
        .from(m)
        .where(and(eq(m.isDelete, false), isNotNull(m.permission)));
      return rows.flatMap((row) => (row.permission ? [row.permission] : []));
    },

    loginDays(scope, ranges) {
      const scoped = loggedBy(scope);
      return Promise.all(
        ranges.map(async ({ from, to }) => {
          const [row] = await db
            .select({ logins: count(), users: countDistinct(l.userId) })
            .from(l)
            .where(and(eq(l.success, true), gte(l.createTime, from), lt(l.createTime, to), scoped));
          return { logins: Number(row?.logins ?? 0), activeUsers: Number(row?.users ?? 0) };
        }),
      );
    },
  };
}
