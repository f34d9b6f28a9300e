/**
 * Authentication helpers for tests: log in over HTTP, build bearer headers, forge tokens.
 */
import { createHmac } from 'node:crypto';
import type { TestServer } from './index.js';

/** The `data` of a successful login. */
export interface LoginData {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  refreshExpiresAt: string;
  mustChangePassword: boolean;
  sessionMode: string;
  csrfRequired: boolean;
  userId: number;
  account: string;
  isSuperAdmin: boolean;
}

/** Posts a login and returns the whole envelope. */
export async function loginRaw(
  t: TestServer,
  account: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const res = await t.request('/api/v1/auth/login', { json: { account, password }, headers });
  return {
    res,
    body: (await res.json()) as {
      code: number;
      msgKey: string;
      data: LoginData | null;
      args?: Record<string, unknown>;
    },
  };
}

/** Logs in and returns the login data; throws when the login does not succeed. */
export async function login(t: TestServer, account: string, password: string): Promise<LoginData> {
  const { body } = await loginRaw(t, account, password);
  if (body.code !== 0 || !body.data) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.data;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Signs arbitrary header and payload with HMAC (any algorithm name) — for forgery tests. */
export function signJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key: Uint8Array,
  hmac = 'sha256',
): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${createHmac(hmac, key).update(input).digest('base64url')}`;
}

/** The decoded payload of a JWT (no verification). */
export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** The parsed JSON body of a test response (fields are asserted one by one). */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked field by field.
export const json = async (res: Response): Promise<any> => res.json();
