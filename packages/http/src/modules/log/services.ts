/** What the log routes receive (module `Log`), built once by the module. */
import type { Repositories } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { DataScopeResolver } from '@svc/security';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { scopeOf } from '../../security/principal.js';

export interface LogRouteDeps {
  opLogs: Repositories['opLogs'];
  loginLogs: Repositories['loginLogs'];
  exceptionLogs: Repositories['exceptionLogs'];
  /** The Admin module's data scopes: a caller reads the rows of users within theirs. */
  scopes: Pick<DataScopeResolver, 'forPrincipal'>;
}

/**
 * Refuses (41005, `reason: clear-beyond-scope`) a caller whose data scope is narrower than All; the super admin's
 * scope is All. For writes that take every row of a table, those outside any narrower scope and those without a
 * user too (clearing a log: a Self caller holding the code had wiped everyone's audit trail).
 */
export async function assertScopeAll(c: Context<AppEnv>, d: Pick<LogRouteDeps, 'scopes'>): Promise<void> {
  if (!(await scopeOf(c, d.scopes)).all)
    throw new BusinessError(ErrorCode.OutOfDataScope, { reason: 'clear-beyond-scope' });
}
