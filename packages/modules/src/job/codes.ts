/**
 * The error codes of module `Job` (47xxx). Numbers are part of the public contract: never renumber a member.
 * The set keeps the kernel catalogue's source name (`ErrorCode`), so `GET /api/v1/meta/error-codes` lists them as
 * before; the module registers them while it is on.
 */
import { defineErrorCodes, type ErrorCodeSpec } from '@svc/kernel';

const job = (name: string, code: number): ErrorCodeSpec => ({
  code,
  msgKey: `error.job.${name.charAt(0).toLowerCase()}${name.slice(1)}`,
});

export const JobErrorCode = defineErrorCodes('ErrorCode', {
  JobNotFound: job('JobNotFound', 47001),
  JobCodeExists: job('JobCodeExists', 47002),
  /** `args.reason`: why the cron expression was refused. */
  JobCronInvalid: job('JobCronInvalid', 47003),
  JobTriggerInvalid: job('JobTriggerInvalid', 47004),
  JobHandlerNotFound: job('JobHandlerNotFound', 47005),
  JobAlreadyRunning: job('JobAlreadyRunning', 47006),
  JobRunNotAlive: job('JobRunNotAlive', 47007),
  JobSqlDisabled: job('JobSqlDisabled', 47008),
  JobHttpUrlBlocked: job('JobHttpUrlBlocked', 47009),
  JobStatusConflict: job('JobStatusConflict', 47010),
});
