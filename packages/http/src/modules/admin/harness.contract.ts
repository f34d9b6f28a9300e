/**
 * Shared set-up of the administration contract suites: a server per suite (rate limits off, so hundreds of
 * requests from one test address are fine), the super admin's token, a JSON caller, and helpers that build
 * users with exactly the codes and data scope a test needs — through the API itself wherever possible.
 */
import type { DbType } from '@svc/kernel';
import { expect } from 'vitest';
import { bearer, login } from '../../testing/auth.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
  type TestServerOptions,
} from '../../testing/index.js';

export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field.
  body: any;
}

export interface AdminHarness {
  t: TestServer;
  /** The super admin's access token. */
  admin: string;
  adminId: number;
  call(
    method: string,
    path: string,
    options?: { token?: string; json?: unknown; headers?: Record<string, string> },
  ): Promise<ApiAnswer>;
  /** Calls and expects envelope code 0; answers `data`. */
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field.
  ok(method: string, path: string, options?: { token?: string; json?: unknown }): Promise<any>;
  /** Creates an organisation under `parentId` and answers its id. */
  org(code: string, parentId?: number): Promise<number>;
  /** A role holding a button with `codes`, with a data scope; answers the role id. */
  role(
    code: string,
    codes: readonly string[],
    scope?: { scopeType: number; customOrgIds?: number[] },
  ): Promise<number>;
  /** A user in `orgId` with `roleIds`, password set to {@link USER_PASSWORD}; answers the id. */
  user(account: string, options?: { orgId?: number | null; roleIds?: number[] }): Promise<number>;
  /** Logs a user in with {@link USER_PASSWORD} and answers the access token. */
  loginAs(account: string): Promise<string>;
  close(): Promise<void>;
}

/** The password every harness user gets (the server's `DefaultInitialPassword`). */
export const USER_PASSWORD = 'Initial#Pass2345';

/** Root organisation of the seed. */
export const ROOT_ORG_ID = 1;

let menuCounter = 0;

export async function startAdminServer(
  dbType: DbType,
  cache: 'Memory' | 'Redis',
  options: TestServerOptions = {},
): Promise<AdminHarness> {
  const t = await startTestServer({
    dbType,
    cache,
    ...options,
    env: {
      Service__Security__RateLimit__Enabled: 'false',
      Service__Security__DefaultInitialPassword: USER_PASSWORD,
      ...options.env,
    },
  });
  const session = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);

  const call: AdminHarness['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = {
      ...(o.token === undefined ? bearer(session.accessToken) : o.token === '' ? {} : bearer(o.token)),
      ...o.headers,
    };
    const init: RequestInit & { json?: unknown } = { method, headers };
    if (o.json !== undefined) init.json = o.json;
    const res = await t.request(path, init);
    // A workbook or other download is not JSON: its body is answered as null (the status still counts).
    if (!(res.headers.get('content-type') ?? 'application/json').includes('json')) {
      await res.arrayBuffer();
      return { status: res.status, body: null };
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const okCall: AdminHarness['ok'] = async (method, path, o) => {
    const answer = await call(method, path, o);
    expect(answer.body, `${method} ${path}`).toMatchObject({ code: 0 });
    return answer.body.data;
  };

  return {
    t,
    admin: session.accessToken,
    adminId: session.userId,
    call,
    ok: okCall,
    async org(code, parentId = ROOT_ORG_ID) {
      return (await okCall('POST', '/api/v1/sys/org', { json: { parentId, name: code, code } })).id;
    },
    async role(code, codes, scope) {
      const roleId = (await okCall('POST', '/api/v1/sys/role', { json: { name: code, code } })).id;
      if (codes.length > 0) {
        const menuId = (
          await okCall('POST', '/api/v1/sys/menu', {
            json: {
              parentId: 0,
              type: 'button',
              title: `grant ${code} ${++menuCounter}`,
              permission: codes.join(';'),
            },
          })
        ).id;
        await okCall('PUT', `/api/v1/sys/role/${roleId}/menus`, { json: { menuIds: [menuId] } });
      }
      if (scope)
        await okCall('PUT', `/api/v1/sys/role/${roleId}/datascope`, { json: { customOrgIds: [], ...scope } });
      return roleId;
    },
    async user(account, o = {}) {
      const body: Record<string, unknown> = {
        account,
        realName: account,
        orgId: o.orgId === undefined ? ROOT_ORG_ID : o.orgId,
      };
      if (o.roleIds) body.roleIds = o.roleIds;
      return (await okCall('POST', '/api/v1/sys/user', { json: body })).id;
    },
    async loginAs(account) {
      return (await login(t, account, USER_PASSWORD)).accessToken;
    },
    close: () => t.close(),
  };
}
