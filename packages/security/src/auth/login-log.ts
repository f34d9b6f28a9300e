/**
 * The one writer of login-log rows, for every flow that records an attempt (password login, second-factor
 * completions, SMS login, the other password doors). Its input is the row's own shape plus the client info,
 * so a new column that the client info carries is one line here.
 */
import type { LoginLogRepository, LoginMethod } from '@svc/data';
import { ErrorCode, type Logger } from '@svc/kernel';
import type { ClientInfo } from './principal.js';

/** One attempt to record. */
export interface LoginAttemptRecord {
  /** What was submitted (an account, or a phone number for SMS login); never a secret. */
  account: string;
  /** 0 for success, else the business code answered. */
  resultCode: number;
  userId: number | null;
  /** How the attempt proved itself (the flow's own method); null only for a security event that is no login. */
  method: LoginMethod | null;
  /** Absent when the flow has no request facts (a service called without HTTP). */
  client?: ClientInfo | undefined;
}

/** Writes one row; a failure to write is logged, never answered (the attempt's outcome matters more). */
export type LoginLogWriter = (record: LoginAttemptRecord) => Promise<void>;

export function createLoginLogWriter(deps: {
  loginLogs: Pick<LoginLogRepository, 'insert'>;
  now: () => Date;
  logger: Logger;
}): LoginLogWriter {
  return async function writeLoginLog({ account, resultCode, userId, method, client }) {
    try {
      await deps.loginLogs.insert({
        account,
        success: resultCode === ErrorCode.Success.code,
        resultCode,
        userId,
        ip: client?.ip || null,
        userAgent: client?.userAgent || null,
        traceId: client?.traceId ?? null,
        method,
        createTime: deps.now(),
      });
    } catch (error) {
      deps.logger.error('Could not write the login log.', { error });
    }
  };
}
