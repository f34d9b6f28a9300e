/**
 * The high-sensitivity permission list (spec "Endpoint-level attributes"): the built-in default set, read-only
 * and undeletable, plus codes an administrator adds. The default set is a rule over the service's permission
 * codes: writes of users, roles, system config, scheduled jobs and menus, forced logout, permanent recycle-bin
 * deletion, MFA clearing and the three audit-log clears (contract §11). Every route whose code is in the default
 * set is guarded (openapi/register.ts derives the marker from {@link isDefaultHighSensitivity}, so the set and
 * the guard cannot drift apart). Adding a code only records it; a consumer route must carry the
 * re-authentication marker itself. Only a real permission route of the running service can be added.
 */
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { MfaDeps } from './common.js';

/** One item of `GET /sys/mfa/high-sensitivity` (contract §5). */
export interface HighSensitivityItem {
  /** Null for built-in items. */
  id: number | null;
  permissionCode: string;
  remark: string | null;
  builtIn: boolean;
}

export interface HighSensitivityService {
  list(): Promise<HighSensitivityItem[]>;
  /** Adds a code (idempotent); 48000 for a code that is no permission route or is built in. */
  add(
    input: { permissionCode: string; remark?: string | undefined },
    actorId: number | null,
  ): Promise<{ id: number }>;
  /** Removes an added code; 48003 when there is no such item (built-in items have no id). */
  remove(id: number): Promise<void>;
  /** True when any of `codes` is in the set: built in by the rule, or added (read from the database now). */
  covers(codes: Iterable<string>): Promise<boolean>;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WRITE_AREAS = /^\/api\/v1\/sys\/(user|role|config|job|menu)(\/|$)/;
const SINGLE_CODES = new Set([
  'DELETE:/api/v1/sys/session/{sessionid}',
  'DELETE:/api/v1/sys/recycle/{type}/{id}',
  'POST:/api/v1/sys/mfa/clear',
  // Wiping an audit trail is what an intruder with a stolen admin token does first (contract §11).
  'DELETE:/api/v1/sys/log/op',
  'DELETE:/api/v1/sys/log/login',
  'DELETE:/api/v1/sys/log/exception',
]);

/** Writes by method that write nothing: the import's checks, preview and error report (the commit writes). */
const CHECKS = new Set([
  'POST:/api/v1/sys/user/import/validate',
  'POST:/api/v1/sys/user/import/preview',
  'POST:/api/v1/sys/user/import/error-report',
]);

/** Whether a permission code belongs to the built-in default set. */
export function isDefaultHighSensitivity(code: string): boolean {
  const [method = '', path = ''] = splitCode(code);
  if (SINGLE_CODES.has(`${method}:${path}`)) return true;
  if (CHECKS.has(`${method}:${path}`)) return false;
  return WRITES.has(method) && WRITE_AREAS.test(path) && path !== '/api/v1/sys/config/site';
}

/** `METHOD:/path` → [upper method, lower path] (contract §4 spelling). */
function splitCode(code: string): [string, string] {
  const at = code.indexOf(':');
  return at < 0
    ? ['', '']
    : [
        code.slice(0, at).trim().toUpperCase(),
        code
          .slice(at + 1)
          .trim()
          .toLowerCase(),
      ];
}

const invalid = (message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path: 'permissionCode', message }] });

export function createHighSensitivityService(
  deps: Pick<MfaDeps, 'repositories' | 'knownPermissionCodes' | 'now'> & { seedCodes: readonly string[] },
): HighSensitivityService {
  const repo = deps.repositories.highSensitivity;
  const allCodes = () => new Set([...deps.seedCodes, ...deps.knownPermissionCodes()]);

  return {
    async list() {
      const builtIn = [...allCodes()]
        .filter(isDefaultHighSensitivity)
        .sort()
        .map((permissionCode) => ({ id: null, permissionCode, remark: null, builtIn: true }));
      const added = (await repo.list()).map((row) => ({
        id: row.id,
        permissionCode: row.permissionCode,
        remark: row.remark,
        builtIn: false,
      }));
      return [...builtIn, ...added];
    },

    async add(input, actorId) {
      const [method, path] = splitCode(input.permissionCode);
      const code = `${method}:${path}`;
      if (!new Set(deps.knownPermissionCodes()).has(code)) {
        throw invalid('Not a permission route of this service.');
      }
      if (isDefaultHighSensitivity(code)) throw invalid('Already in the built-in default set.');
      const { id } = await repo.add({
        permissionCode: code,
        remark: input.remark ?? null,
        createUserId: actorId,
        createTime: deps.now(),
      });
      return { id };
    },

    async remove(id) {
      if (!(await repo.delete(id))) throw new BusinessError(ErrorCode.NotFound);
    },

    async covers(codes) {
      const wanted = [...codes].map((code) => splitCode(code).join(':'));
      if (wanted.some(isDefaultHighSensitivity)) return true;
      if (wanted.length === 0) return false;
      const added = new Set((await repo.list()).map((row) => row.permissionCode));
      return wanted.some((code) => added.has(code));
    },
  };
}
