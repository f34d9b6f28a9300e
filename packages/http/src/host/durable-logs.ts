/**
 * Login-log durability (contract §10, issue 11): the login-log repository's `insert` is decorated in the
 * composition root, so a row the database refuses goes to a durable writer (retries, then the spill under
 * `{ContentRoot}/data/`, replayed on recovery and at the next start) instead of being lost. The login flow keeps
 * calling `repos.loginLogs.insert` and does not know; a spilled row answers id 0 (its id is not known yet).
 */
import type { LoginLogRepository, NewLoginLog, Repositories } from '@svc/data';
import type { Logger } from '@svc/kernel';
import { createDurableLogWriter, type DurableLogWriter } from '@svc/logging';

/** File-name prefix of the login-log spill under `{ContentRoot}/data`. */
export const LOGIN_LOG_SPILL_NAME = 'loginlog-spill';

export interface DurableLoginLog {
  repos: Repositories;
  writer: DurableLogWriter<NewLoginLog>;
}

/** A spilled login-log row back into a row (its time was written as an ISO string). */
export function reviveLoginLog(value: unknown): NewLoginLog {
  const row = value as NewLoginLog & { createTime: string };
  return { ...row, createTime: new Date(row.createTime) };
}

/** The repositories with a login-log `insert` that never loses a row to a database failure. */
export function withDurableLoginLog(
  repos: Repositories,
  options: { dir: string; maxBytes: number; logger: Logger },
): DurableLoginLog {
  const inner: LoginLogRepository = repos.loginLogs;
  const writer = createDurableLogWriter<NewLoginLog>({
    label: 'Login-log',
    logger: options.logger,
    sink: {
      async insertMany(rows) {
        for (const row of rows) await inner.insert(row);
      },
    },
    // One row per replayed statement: after a crash mid-replay at most that row can repeat (no trace id yet).
    replayBatchSize: 1,
    spill: {
      dir: options.dir,
      name: LOGIN_LOG_SPILL_NAME,
      maxBytes: options.maxBytes,
      revive: reviveLoginLog,
    },
  });
  const loginLogs: LoginLogRepository = {
    ...inner,
    async insert(entry) {
      try {
        return await inner.insert(entry);
      } catch (error) {
        options.logger.warn('Login-log row refused by the database; kept for a retry.', { error });
        await writer.write(entry);
        return 0;
      }
    },
  };
  return { repos: { ...repos, loginLogs }, writer };
}
