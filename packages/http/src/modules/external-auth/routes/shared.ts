/**
 * What the external-login routes share: the binder and pending-link cookies
 * (HttpOnly, SameSite=Lax so the provider's top-level redirect carries them, path-scoped to these routes,
 * Secure outside Development and tests) and the redirect to the frontend result path.
 */
import { z } from '@hono/zod-openapi';
import { type ExternalAuthService, FLOW_TTL_MS, PENDING_TTL_MS } from '@svc/modules';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../../context.js';
import { commonErrorResponses, ErrorEnvelopeSchema } from '../../../openapi/schemas.js';
import type { ExternalAuthRouteDeps } from '../services.js';

export const BASE = '/api/v1/auth/external';
export const BINDER_COOKIE = 'svc_ext_binder';
export const PENDING_COOKIE = 'svc_ext_pending';

export const ProviderParam = z.object({
  provider: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .openapi({ param: { name: 'provider', in: 'path' }, example: 'corp' }),
});

/**
 * Starts a flow at the provider bound to this browser: its binder is reused when present, so that two flows in
 * one browser both stay valid. The cookie is set only once the flow is cached: a provider unknown, off or out of
 * reach answers its error and leaves the browser's cookies as they were.
 */
export async function startFlow(
  c: Context<AppEnv>,
  d: Pick<ExternalAuthRouteDeps, 'service' | 'secureCookies'>,
  input: Omit<Parameters<ExternalAuthService['authorizeUrl']>[0], 'binder' | 'requestOrigin'>,
): Promise<URL> {
  const existing = getCookie(c, BINDER_COOKIE);
  const binder = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : d.service.newBinder();
  const url = await d.service.authorizeUrl({ ...input, binder, requestOrigin: requestOrigin(c) });
  setBinderCookie(c, d, binder, FLOW_TTL_MS);
  return url;
}

/** Sets the binder cookie for `lifetimeMs` (at the callback: as long as the ticket exchanged with it lives). */
export function setBinderCookie(
  c: Context<AppEnv>,
  { secureCookies }: Pick<ExternalAuthRouteDeps, 'secureCookies'>,
  binder: string,
  lifetimeMs: number,
): void {
  setCookie(c, BINDER_COOKIE, binder, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: secureCookies,
    path: BASE,
    maxAge: Math.ceil(lifetimeMs / 1000),
  });
}

export function setPendingCookie(
  c: Context<AppEnv>,
  { secureCookies }: Pick<ExternalAuthRouteDeps, 'secureCookies'>,
  value: string,
): void {
  setCookie(c, PENDING_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: secureCookies,
    path: BASE,
    maxAge: PENDING_TTL_MS / 1000,
  });
}

/** The origin of the request: used for the redirect URI outside Production only. */
export function requestOrigin(c: Context<AppEnv>): string {
  return new URL(c.req.url).origin;
}

/** The frontend result path with the outcome as query parameters. */
export function resultLocation(
  { resultPath: path }: Pick<ExternalAuthRouteDeps, 'resultPath'>,
  outcome: Record<string, string>,
): string {
  const query = new URLSearchParams(outcome).toString();
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** Browser navigations: a redirect, or an error envelope when the path itself is bad. */
export const redirectResponses = {
  200: {
    description: 'Malformed provider code: the error envelope (48000); every other outcome is a redirect.',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
  302: { description: 'Redirect (see the description for where).' },
  429: commonErrorResponses[429],
  500: commonErrorResponses[500],
} as const;
