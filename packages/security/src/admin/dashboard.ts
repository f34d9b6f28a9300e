/**
 * The dashboard summary within the caller's data scope: live users and online sessions of users inside it,
 * roles and permission codes (metadata, not scoped), and the last seven days (UTC, today last) of successful
 * logins and distinct signed-in users from the login log, for users inside the scope.
 */
import { splitPermissionCodes } from '@svc/data';
import type { AdminActor } from './actor.js';
import type { ResolvedAdminDeps } from './deps.js';

export interface DashboardSummary {
  roles: number;
  users: number;
  /** Distinct permission codes carried by live menus. */
  perms: number;
  onlineSessions: number;
  /** `MM-dd` of the last seven UTC days, oldest first. */
  trendDays: string[];
  trendLogins: number[];
  trendActiveUsers: number[];
}

export interface DashboardService {
  summary(actor: AdminActor): Promise<DashboardSummary>;
}

const DAY_MS = 86_400_000;
const TREND_DAYS = 7;

export function createDashboardService(deps: ResolvedAdminDeps): DashboardService {
  const { repos, now } = deps;
  return {
    async summary(actor) {
      const scope = await actor.scope();
      const at = now();
      const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
      const ranges = Array.from({ length: TREND_DAYS }, (_, i) => {
        const from = today - (TREND_DAYS - 1 - i) * DAY_MS;
        return { from: new Date(from), to: new Date(from + DAY_MS) };
      });
      const [users, roles, texts, online, days] = await Promise.all([
        repos.dashboard.countUsers(scope),
        repos.dashboard.countRoles(),
        repos.dashboard.permissionTexts(),
        repos.onlineSessions.page({ current: 1, size: 1 }, scope, at),
        repos.dashboard.loginDays(scope, ranges),
      ]);
      const codes = new Set(texts.flatMap((t) => splitPermissionCodes(t)));
      return {
        roles,
        users,
        perms: codes.size,
        onlineSessions: online.total,
        trendDays: ranges.map(({ from }) => from.toISOString().slice(5, 10)),
        trendLogins: days.map((d) => d.logins),
        trendActiveUsers: days.map((d) => d.activeUsers),
      };
    },
  };
}
