/**
 * All repositories of one open database. Later features add theirs here.
 */

import { type ConfigRepository, createConfigRepository } from './configs.js';
import type { RepositoryContext } from './context.js';
import { createExceptionLogRepository, type ExceptionLogRepository } from './exception-logs.js';
import { createUserRepository, type UserRepository } from './users.js';

export interface Repositories {
  users: UserRepository;
  exceptionLogs: ExceptionLogRepository;
  configs: ConfigRepository;
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
  };
}
