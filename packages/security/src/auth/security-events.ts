/**
 * Security events in the login log (contract §10 "Security events"): refresh-token replay (40007 after the
 * reuse interval) and CSRF refusals (40023) are written as `sys_login_log` rows with the account when known,
 * the client's address, user agent and the request's trace id. A row that cannot be written is reported to the
 * service log; the refusal itself stands.
 */
import type { LoginLogRepository, LoginMethod } from '@svc/data';
import { type Logger, silentLogger } from '@svc/kernel';
import { createLoginLogWriter } from './login-log.js';
import type { ClientInfo } from './principal.js';

/** One refused request worth an audit row. */
export interface SecurityEvent {
  /** The account the request acted for; '' when unknown. */
  account: string;
  userId: number | null;
  /** The error code answered (40007, 40023, …). */
  resultCode: number;
  /** The login method when the event is a login (an external login's outcome); absent for other refusals. */
  method?: LoginMethod | undefined;
  client: ClientInfo;
}

export interface SecurityEventLog {
  /** Writes one login-log row; never throws. */
  record(event: SecurityEvent): Promise<void>;
}

/** Dependencies of {@link createSecurityEventLog}. */
export interface SecurityEventLogDeps {
  loginLogs: Pick<LoginLogRepository, 'insert'>;
  now: () => Date;
  /** Told when a row cannot be written. @default silentLogger */
  logger?: Logger;
}

/**
 * Creates the writer: the one login-log writer (`login-log.ts`) under the event-shaped interface.
 * @example
 * const events = createSecurityEventLog({ loginLogs: repos.loginLogs, now: () => new Date(), logger });
 * await events.record({ account, userId, resultCode: 40023, client });
 */
export function createSecurityEventLog(deps: SecurityEventLogDeps): SecurityEventLog {
  const write = createLoginLogWriter({
    loginLogs: deps.loginLogs,
    now: deps.now,
    logger: deps.logger ?? silentLogger,
  });
  return { record: (event) => write({ ...event, method: event.method ?? null }) };
}
