/**
 * `sys_login_log`: one row per login attempt (spec "Log masking"): the account exactly as submitted (even when
 * no such account exists), success, the result code, the login method, the user id when known, IP, user agent and
 * the request's trace id. There is no
 * password field, so none can ever be written. Reads given a data scope see the rows of accounts inside it (contract
 * §4): the row's user is in an organisation of the scope, or is the caller under Self; attempts on unknown
 * accounts (no user id) are seen by an All scope only.
 */
import { and, desc, eq } from 'drizzle-orm';
import { EXACT_LOG_TOTAL_BELOW, idSpanTotal, type Page, type PageQuery, paginate } from '../paging.js';
import type { SysLoginLogRow } from '../rows.js';
import { truncate } from '../text.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, userScopeCondition } from './data-scope.js';
import { containsIgnoreCase } from './filters.js';
import { deleteLogRowsBefore } from './log-retention.js';

/** Column widths of `sys_login_log`: a submitted account may be anything, so it is cut rather than refused. */
export const LOGIN_LOG_ACCOUNT_MAX_CHARS = 128;
const IP_MAX = 64;
const USER_AGENT_MAX = 500;
const TRACE_ID_MAX = 64;

/**
 * How a login attempt proved itself, the closed set of `sys_login_log.method` (varchar(16)): the password login
 * and the password doors, the SMS step or SMS login, the TOTP step or a TOTP re-authentication, the recovery-code
 * door, a passkey, an external OpenID provider. Rows written before the column and security events that are no
 * login (refresh-token reuse, CSRF refusals) hold null.
 */
export const LOGIN_METHODS = ['password', 'sms', 'totp', 'recovery', 'passkey', 'external'] as const;

/** One of {@link LOGIN_METHODS}. */
export type LoginMethod = (typeof LOGIN_METHODS)[number];

/** A stored method as one of {@link LOGIN_METHODS}; null for an older row or a value outside the set. */
export function asLoginMethod(value: string | null): LoginMethod | null {
  return (LOGIN_METHODS as readonly string[]).includes(value ?? '') ? (value as LoginMethod) : null;
}

/** One login attempt. */
export interface NewLoginLog {
  /** The raw submitted account (cut to {@link LOGIN_LOG_ACCOUNT_MAX_CHARS}). */
  account: string;
  success: boolean;
  /** 0 on success, else the error code answered. */
  resultCode: number;
  userId?: number | null;
  ip?: string | null;
  userAgent?: string | null;
  /** The request's `X-Trace-Id`, so a security event can be found in the service log. */
  traceId?: string | null;
  /** How the attempt proved itself; absent for a security event that is no login. */
  method?: LoginMethod | null;
  createTime: Date;
}

export interface LoginLogPageQuery extends PageQuery {
  /** Submitted account contains (case-insensitive). */
  account?: string | undefined;
  /** Exactly this method. */
  method?: LoginMethod | undefined;
}

export interface LoginLogRepository {
  /** Records one attempt and returns its id. */
  insert(entry: NewLoginLog): Promise<number>;
  /** Newest first unless the query sorts by another column; with a scope, only rows of users inside it. */
  page(query: LoginLogPageQuery, scope?: DataScopeFilter): Promise<Page<SysLoginLogRow>>;
  /** Hard-deletes every row; returns how many there were. */
  deleteAll(): Promise<number>;
  /** Deletes the rows older than `cutoff` (retention), a chunk at a time; answers how many went. */
  deleteOlderThan(cutoff: Date): Promise<number>;
}

export function createLoginLogRepository(
  { db, adapter, tables }: RepositoryContext,
  /** Below this many rows an unfiltered page counts them ({@link idSpanTotal}). */
  exactTotalBelow = EXACT_LOG_TOTAL_BELOW,
): LoginLogRepository {
  const t = tables.sysLoginLog;
  const spanTotal = idSpanTotal(db, t, exactTotalBelow);
  return {
    insert(entry) {
      return adapter.insertReturningId(db, t, {
        account: truncate(entry.account, LOGIN_LOG_ACCOUNT_MAX_CHARS),
        success: entry.success,
        resultCode: entry.resultCode,
        userId: entry.userId ?? null,
        ip: entry.ip == null ? null : truncate(entry.ip, IP_MAX),
        userAgent: entry.userAgent == null ? null : truncate(entry.userAgent, USER_AGENT_MAX),
        traceId: entry.traceId == null || entry.traceId === '' ? null : truncate(entry.traceId, TRACE_ID_MAX),
        // A row replayed from the spill file carries whatever was written there: only a known method is stored.
        method: asLoginMethod(entry.method ?? null),
        createTime: entry.createTime,
      });
    },

    page(query, scope) {
      const where = and(
        containsIgnoreCase(t.account, query.account),
        query.method === undefined ? undefined : eq(t.method, query.method),
        scope && userScopeCondition(scope, t.userId, tables.sysUser),
      );
      return paginate(
        { db, adapter },
        {
          table: t,
          query,
          where,
          defaultOrder: [desc(t.createTime), desc(t.id)],
          // The whole log: its id span, not a COUNT that grows with it.
          total: where === undefined ? spanTotal : undefined,
        },
      );
    },

    deleteOlderThan(cutoff) {
      return deleteLogRowsBefore({ db, adapter }, t, cutoff);
    },

    async deleteAll() {
      return adapter.affectedRows(await db.delete(t));
    },
  };
}
