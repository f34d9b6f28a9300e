/**
 * All repositories of one open database. Later features add theirs here.
 */

import { type ConfigRepository, createConfigRepository } from './configs.js';
import type { RepositoryContext } from './context.js';
import { createDashboardRepository, type DashboardRepository } from './dashboard.js';
import { createDictRepository, type DictRepository } from './dicts.js';
import { createExceptionLogRepository, type ExceptionLogRepository } from './exception-logs.js';
import { createFileRepository, type FileRepository } from './files.js';
import {
  createJobLogRepository,
  createJobRepository,
  type JobLogRepository,
  type JobRepository,
} from './jobs.js';
import { createLoginLogRepository, type LoginLogRepository } from './login-logs.js';
import { createMenuRepository, type MenuRepository } from './menus.js';
import { createModuleRepository, type ModuleRepository } from './modules.js';
import { createNoticeRepository, type NoticeRepository } from './notices.js';
import { createOnlineSessionRepository, type OnlineSessionRepository } from './online-sessions.js';
import { createOpLogRepository, type OpLogRepository } from './op-logs.js';
import { createOrgRepository, type OrgRepository } from './orgs.js';
import { createPasswordHistoryRepository, type PasswordHistoryRepository } from './password-history.js';
import { createPermissionRepository, type PermissionRepository } from './permissions.js';
import { createPositionRepository, type PositionRepository } from './positions.js';
import { createRefreshTokenRepository, type RefreshTokenRepository } from './refresh-tokens.js';
import { createRoleRepository, type RoleRepository } from './roles.js';
import { createSessionRepository, type SessionRepository } from './sessions.js';
import { createTrashRepository, type TrashRepository } from './trash.js';
import { createUserExternalRepository, type UserExternalRepository } from './user-external.js';
import { createUserRepository, type UserRepository } from './users.js';

export interface Repositories {
  users: UserRepository;
  exceptionLogs: ExceptionLogRepository;
  configs: ConfigRepository;
  sessions: SessionRepository;
  refreshTokens: RefreshTokenRepository;
  loginLogs: LoginLogRepository;
  passwordHistory: PasswordHistoryRepository;
  permissions: PermissionRepository;
  dicts: DictRepository;
  opLogs: OpLogRepository;
  files: FileRepository;
  roles: RoleRepository;
  menus: MenuRepository;
  orgs: OrgRepository;
  positions: PositionRepository;
  onlineSessions: OnlineSessionRepository;
  modules: ModuleRepository;
  dashboard: DashboardRepository;
  /** Soft-deleted rows of any soft-deletable table (the recycle bin). */
  trash: TrashRepository;
  notices: NoticeRepository;
  jobs: JobRepository;
  jobLogs: JobLogRepository;
  /** External (OpenID) identities bound to users. */
  userExternal: UserExternalRepository;
}

/**
 * Builds every repository over one database.
 * @example const repos = createRepositories(database); await repos.users.findByAccount('superAdmin');
 */
export function createRepositories(database: RepositoryContext): Repositories {
  return {
    users: createUserRepository(database),
    exceptionLogs: createExceptionLogRepository(database),
    configs: createConfigRepository(database),
    sessions: createSessionRepository(database),
    refreshTokens: createRefreshTokenRepository(database),
    loginLogs: createLoginLogRepository(database),
    passwordHistory: createPasswordHistoryRepository(database),
    permissions: createPermissionRepository(database),
    dicts: createDictRepository(database),
    opLogs: createOpLogRepository(database),
    files: createFileRepository(database),
    roles: createRoleRepository(database),
    menus: createMenuRepository(database),
    orgs: createOrgRepository(database),
    positions: createPositionRepository(database),
    onlineSessions: createOnlineSessionRepository(database),
    modules: createModuleRepository(database),
    dashboard: createDashboardRepository(database),
    trash: createTrashRepository(database),
    notices: createNoticeRepository(database),
    jobs: createJobRepository(database),
    jobLogs: createJobLogRepository(database),
    userExternal: createUserExternalRepository(database),
  };
}
