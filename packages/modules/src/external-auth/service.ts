/**
 * External login with OpenID Connect (module `ExternalAuth`). openid-client does discovery, PKCE, state, nonce,
 * the code exchange and ID-token validation; this file only keeps the flow state and decides what an accepted
 * identity means here:
 *
 * - `authorize` caches `{provider, nonce, verifier, binder, purpose}` under a fresh state for 5 minutes; the
 *   browser holds the binder in an HttpOnly cookie. The callback takes the state atomically (single use, also
 *   across instances on Redis) and refuses it unless the binder cookie matches.
 * - A login ends in a single-use ticket (120 s) that `POST /exchange` turns into the login output, so tokens
 *   never travel in URLs; only the browser that ran the flow (its binder cookie) can exchange it, so a ticket
 *   sent to someone else cannot sign them in as the sender (login CSRF). An unknown identity is linked by account
 *   (verified email or preferred_username, when `.linkByAccount`, to an account with no identity at that provider
 *   yet, whose name is the claim's exactly after the login's canonical form), provisioned (when `.provisioning`)
 *   or offered as a pending link (15 min, cookie-bound) that a normal login claims. Linking by name never reaches
 *   a privileged account (contract §11): the super admin, a disabled account, or one whose roles grant a code of
 *   the high-sensitivity set get the pending link instead, claimed only after their password and a
 *   re-authentication.
 * - A bind belongs to the session that started it: a session revoked before the callback (logout, password
 *   reset, disable…) binds nothing, so a stolen token cannot leave a lasting way in behind it.
 * - Provisioned accounts follow the account-name rules of every other account (`normalizeAccountName`).
 * - Every refusal becomes a code (40029–40034, 40005, 40018…), written to the login log.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Repositories, SysUserRow } from '@svc/data';
import { uniqueOr } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import {
  BusinessError,
  ErrorCode,
  type HostEnvironment,
  isBusinessError,
  type Logger,
  parseDecimalInteger,
} from '@svc/kernel';
import {
  AdminErrorCode,
  type ClientInfo,
  type HighSensitivityService,
  type IssuedSession,
  type LoginSteps,
  normalizeAccount,
  normalizeAccountName,
  type SessionAuthService,
} from '@svc/security';
import type * as oidc from 'openid-client';
import { ExternalAuthErrorCode } from './codes.js';
import { importOpenidClient } from './library.js';
import type { ExternalAuthOptions, OidcProviderOptions } from './options.js';

export const FLOW_TTL_MS = 5 * 60_000;
export const TICKET_TTL_MS = 120_000;
export const PENDING_TTL_MS = 15 * 60_000;
export const CALLBACK_PATH = (code: string) => `/api/v1/auth/external/${code}/callback`;
/** The longest subject kept (`sys_user_external.subject`): a longer one is refused before anything is written. */
export const MAX_SUBJECT_LENGTH = 255;

const KEYS = {
  flow: 'extauth:flow:',
  ticket: 'extauth:ticket:',
  pending: 'extauth:pending:',
} as const;

interface Flow {
  /** Service-clock deadline (ms); the cache TTL is the backstop. */
  expiresAt: number;
  provider: string;
  nonce: string;
  verifier: string | null;
  binder: string;
  redirectUri: string;
  /** Set when a logged-in user binds another identity. */
  bindUserId: number | null;
  /** The session that started the bind: it must still be live at the callback. */
  bindSessionId: string | null;
}

interface Ticket {
  expiresAt: number;
  userId: number;
  provider: string;
  /** The binder of the browser that ran the flow: only it may exchange the ticket. */
  binder: string;
}

interface Pending {
  expiresAt: number;
  provider: string;
  subject: string;
  displayName: string | null;
  binder: string;
}

/** Runtime switches of one provider (`sys.externalauth.{code}.*`); all default to off. */
export interface ProviderSwitches {
  enabled: boolean;
  provisioning: boolean;
  linkByAccount: boolean;
  defaultRoleIds: number[];
  defaultOrgId: number | null;
}

/** Where a callback sends the browser (query parameters of the frontend result path). */
export type CallbackOutcome = Record<string, string>;

export interface ExternalAuthDeps {
  /** The environment (Production refuses plain-HTTP providers and the request's origin as callback base). */
  environment: Pick<HostEnvironment, 'isProduction'>;
  /** The module's options (`Service:ExternalAuth`). */
  options: ExternalAuthOptions;
  repos: Repositories;
  cache: Cache;
  configStore: { getRaw(key: string): Promise<string | undefined> };
  auth: SessionAuthService;
  /** The password login's second-factor step (TOTP challenge after an external login). */
  loginSteps: Pick<LoginSteps, 'hooks'>;
  /** The high-sensitivity set: an account whose roles grant any of it is never linked by name. */
  highSensitivity: Pick<HighSensitivityService, 'covers'>;
  logger: Logger;
  now: () => Date;
}

export interface ExternalAuthService {
  providers(): readonly OidcProviderOptions[];
  provider(code: string): OidcProviderOptions | undefined;
  switches(code: string): Promise<ProviderSwitches>;
  /** The provider's authorization URL; `binder` is the browser's cookie value (new or reused). */
  authorizeUrl(input: {
    code: string;
    binder: string;
    requestOrigin: string;
    /** A signed-in user binding another identity, and the session they do it from. */
    bind?: { userId: number; sessionId: string };
  }): Promise<URL>;
  /** Handles the provider's redirect; never throws a business error (it becomes `{ error }`). */
  callback(input: {
    code: string;
    query: URLSearchParams;
    binder: string | undefined;
    requestOrigin: string;
    client: ClientInfo;
  }): Promise<{ outcome: CallbackOutcome; pendingBinder?: string }>;
  /** `binder` is the browser's binder cookie: a ticket is exchanged only by the browser that ran its flow. */
  exchange(ticket: string, binder: string | undefined, client: ClientInfo): Promise<IssuedSession>;
  claimPending(pendingLink: string, binder: string | undefined, userId: number): Promise<void>;
  newBinder(): string;
}

const parseBool = (raw: string | undefined) => ['true', '1'].includes((raw ?? '').trim().toLowerCase());

function sameSecret(a: unknown, b: string | undefined): boolean {
  // An entry cached by an earlier release may lack the field: it matches nothing.
  if (typeof a !== 'string' || b === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The account name the rules make of `wanted`, or undefined when they refuse it. */
function accountName(wanted: string): string | undefined {
  try {
    return normalizeAccountName(wanted);
  } catch {
    return undefined;
  }
}

/** A provider's display text as a name: controls, format characters (bidi overrides, zero-width) removed. */
function displayText(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
}

/** The check openid-client reports as the cause of a refusal (walking the cause chain), without values. */
function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const e = current as { code?: unknown; claim?: unknown; parameter?: unknown; cause?: unknown };
    if (typeof e.code === 'string') parts.push(e.code);
    if (typeof e.claim === 'string') parts.push(`claim=${e.claim}`);
    if (typeof e.parameter === 'string') parts.push(`parameter=${e.parameter}`);
    current = e.cause;
  }
  return parts.join(' ');
}

/** A refusal of the callback: the code the browser is redirected with. */
class Refusal extends Error {
  constructor(
    readonly code: number,
    readonly account = '',
    readonly userId: number | null = null,
  ) {
    super(`external login refused with ${code}`);
  }
}

/**
 * openid-client (with oauth4webapi and jose's JWE) is loaded on the first external login, not at start-up: a
 * host without OIDC providers never pays its memory (issue 16, idle RSS).
 */
let openidClient: Promise<typeof oidc> | undefined;
const loadOpenidClient = () => (openidClient ??= importOpenidClient());

export function createExternalAuthService(deps: ExternalAuthDeps): ExternalAuthService {
  const { options, repos, cache, logger } = deps;
  const list = options.Oidc;
  const discovered = new Map<string, Promise<oidc.Configuration>>();

  const find = (code: string) => list.find((p) => p.Code.toLowerCase() === code.toLowerCase());

  function discover(p: OidcProviderOptions): Promise<oidc.Configuration> {
    let pending = discovered.get(p.Code);
    if (!pending) {
      pending = loadOpenidClient().then((client) =>
        client.discovery(
          new URL(p.Authority),
          p.ClientId,
          p.ClientSecret ? { client_secret: p.ClientSecret } : undefined,
          p.ClientSecret ? client.ClientSecretPost(p.ClientSecret) : client.None(),
          {
            execute: [
              // The ID token's signature is checked against the provider's key set, not only the TLS channel
              // it came through (openid-client checks it only when asked to).
              client.enableNonRepudiationChecks,
              // Plain HTTP only for an http: authority outside Production (Production refuses one at start-up).
              ...(!deps.environment.isProduction && p.Authority.startsWith('http:')
                ? [client.allowInsecureRequests]
                : []),
            ],
          },
        ),
      );
      // A failed discovery (provider down) is tried again by the next request.
      pending.catch(() => discovered.delete(p.Code));
      discovered.set(p.Code, pending);
    }
    return pending;
  }

  async function switches(code: string): Promise<ProviderSwitches> {
    const key = (name: string) => deps.configStore.getRaw(`sys.externalauth.${code}.${name}`);
    const [enabled, provisioning, linkByAccount, roles, org] = await Promise.all([
      key('enabled'),
      key('provisioning'),
      key('linkByAccount'),
      key('defaultRoleIds'),
      key('defaultOrgId'),
    ]);
    // Ids are plain decimal digits (`0x10`, `1e1` or `2.0` name no role); the list's separators and the org's
    // surrounding spaces are the free-text row's own.
    const id = (text: string) => {
      const n = parseDecimalInteger(text);
      return n !== undefined && n > 0 ? n : null;
    };
    return {
      enabled: parseBool(enabled),
      provisioning: parseBool(provisioning),
      linkByAccount: parseBool(linkByAccount),
      defaultRoleIds: (roles ?? '')
        .split(/[,;\s]+/)
        .map(id)
        .filter((n) => n !== null),
      defaultOrgId: id((org ?? '').trim()),
    };
  }

  /** The enabled provider, else 40029. */
  async function enabledProvider(code: string): Promise<{ p: OidcProviderOptions; s: ProviderSwitches }> {
    const p = find(code);
    if (!p) throw new BusinessError(ExternalAuthErrorCode.ExternalProviderDisabled);
    const s = await switches(p.Code);
    if (!s.enabled) throw new BusinessError(ExternalAuthErrorCode.ExternalProviderDisabled);
    return { p, s };
  }

  /** Production: from CallbackBaseUrl only; elsewhere CallbackBaseUrl when set, else the request's origin. */
  function redirectUri(p: OidcProviderOptions, requestOrigin: string): string {
    const base = options.CallbackBaseUrl || (deps.environment.isProduction ? null : requestOrigin);
    if (!base) throw new BusinessError(ExternalAuthErrorCode.ExternalProviderDisabled);
    return new URL(CALLBACK_PATH(p.Code), base.endsWith('/') ? base : `${base}/`).href;
  }

  const token = () => randomBytes(32).toString('base64url');
  const nowMs = () => deps.now().getTime();

  /** Takes an entry once; one past its service-clock deadline counts as absent. */
  async function takeLive<T extends { expiresAt: number }>(key: string, id: string): Promise<T | undefined> {
    if (!id || id.length > 128) return undefined;
    const entry = await cache.take<T>(`${key}${id}`);
    return entry && entry.expiresAt > nowMs() ? entry : undefined;
  }

  /**
   * The account a claim names: the one the login would find for it whose name is the claim's exactly after the
   * login's canonical form (`normalizeAccount`: NFKC, marks and case folded), so `SUPERADMIN`, `ｓｕｐｅｒａｄｍｉｎ`
   * or `superAdmín` name `superAdmin` on every dialect alike, and nothing the collation alone folds does.
   */
  async function accountNamed(claim: unknown): Promise<SysUserRow | undefined> {
    const wanted = typeof claim === 'string' ? claim.trim() : '';
    if (!wanted || wanted.length > 256) return undefined;
    const canonical = normalizeAccount(wanted);
    for (const spelling of new Set([wanted.normalize('NFKC'), canonical])) {
      const user = await repos.users.findByAccount(spelling);
      if (user && normalizeAccount(user.account) === canonical) return user;
    }
    return undefined;
  }

  /** The account an unknown identity names: by a verified email, else by preferred_username. */
  async function linkCandidate(claims: oidc.IDToken): Promise<SysUserRow | undefined> {
    const byEmail = claims.email_verified === true ? await accountNamed(claims.email) : undefined;
    return byEmail ?? (await accountNamed(claims.preferred_username));
  }

  /**
   * Whether a name alone may sign in as `user` (contract §11): enabled, not the super admin, and no role of theirs
   * grants a code of the high-sensitivity set (read from the database, not the permission cache).
   */
  async function linkableByName(user: SysUserRow): Promise<boolean> {
    if (!user.enabled || user.isSuperAdmin) return false;
    return !(await deps.highSensitivity.covers(await repos.permissions.codesOfUser(user.id)));
  }

  async function provision(
    p: OidcProviderOptions,
    s: ProviderSwitches,
    claims: oidc.IDToken,
  ): Promise<number> {
    const wanted =
      (typeof claims.preferred_username === 'string' && claims.preferred_username.trim()) ||
      `${p.Code}_${claims.sub}`;
    // The rules of every other account (NFKC, no controls, look-alike spaces or direction overrides); a name
    // they refuse, or one taken, gets a generated one.
    let account = accountName(wanted.slice(0, 64));
    if (account === undefined || (await repos.users.accountTaken(account)))
      account = `${p.Code}_${token().slice(0, 10)}`.slice(0, 64);
    const name = displayText(typeof claims.name === 'string' ? claims.name : '') || account;
    const at = deps.now();
    return uniqueOr(
      () =>
        repos.users.insertWithRoles(
          {
            account,
            realName: name.slice(0, 64),
            email: claims.email_verified === true && typeof claims.email === 'string' ? claims.email : null,
            orgId: s.defaultOrgId,
            // A value no hash check accepts: the account logs in through its provider until a password is set.
            password: `!external:${token()}`,
            mustChangePassword: false,
            enabled: true,
            createTime: at,
          } as Parameters<Repositories['users']['insertWithRoles']>[0],
          s.defaultRoleIds,
        ),
      () => new BusinessError(AdminErrorCode.AccountExists),
    );
  }

  /** A ticket for the user (exchanged by the browser of `binder` only), or the TOTP step when the account has one. */
  async function finishLogin(
    user: SysUserRow,
    p: OidcProviderOptions,
    binder: string,
  ): Promise<CallbackOutcome> {
    if (!user.enabled) throw new Refusal(ErrorCode.AccountDisabled.code, user.account, user.id);
    try {
      await deps.loginSteps.hooks.afterPassword(user, {
        account: user.account,
        password: '',
        client: noClient,
      });
    } catch (error) {
      if (isBusinessError(error) && error.code === ErrorCode.TotpRequired.code) {
        const args = (error.args ?? {}) as { challengeId?: string };
        return { totpChallenge: String(args.challengeId ?? ''), error: String(error.code) };
      }
      if (isBusinessError(error) && error.code === ErrorCode.SmsCodeRequired.code) {
        // The SMS second factor: the code is sent; `POST /auth/login/sms` completes as after a password login.
        const args = (error.args ?? {}) as { challengeId?: string; phoneMask?: string };
        return {
          smsChallenge: String(args.challengeId ?? ''),
          phoneMask: String(args.phoneMask ?? ''),
          error: String(error.code),
        };
      }
      if (isBusinessError(error)) throw new Refusal(error.code, user.account, user.id);
      throw error;
    }
    const ticket = token();
    await cache.set(
      `${KEYS.ticket}${ticket}`,
      { expiresAt: nowMs() + TICKET_TTL_MS, userId: user.id, provider: p.Code, binder } satisfies Ticket,
      TICKET_TTL_MS,
    );
    return { ticket };
  }

  const noClient: ClientInfo = { ip: '', userAgent: '' };

  /**
   * The session that started a bind is still live (not revoked, not past its absolute lifetime) and its user
   * enabled; else 40030, as for a state that is no longer good.
   */
  async function assertBindSessionLive(userId: number, sessionId: string | null | undefined): Promise<void> {
    // A flow cached by an earlier release has no session id: it binds nothing.
    const session = typeof sessionId === 'string' ? await repos.sessions.findById(sessionId) : undefined;
    const user = await repos.users.findById(userId);
    const live =
      session !== undefined &&
      session.userId === userId &&
      session.revokedAt === null &&
      (session.absoluteExpiresAt === null || session.absoluteExpiresAt.getTime() > nowMs());
    if (!live || !user?.enabled)
      throw new Refusal(ExternalAuthErrorCode.ExternalStateInvalid.code, user?.account ?? '', userId);
  }

  async function handle(
    input: Parameters<ExternalAuthService['callback']>[0],
  ): Promise<{ outcome: CallbackOutcome; pendingBinder?: string }> {
    const state = input.query.get('state') ?? '';
    // Taken first, whatever follows: a state is good for one callback only.
    const flow = await takeLive<Flow>(KEYS.flow, state);
    let p: OidcProviderOptions;
    let s: ProviderSwitches;
    try {
      ({ p, s } = await enabledProvider(input.code));
    } catch {
      throw new Refusal(ExternalAuthErrorCode.ExternalProviderDisabled.code);
    }
    if (!flow || flow.provider !== p.Code || !sameSecret(flow.binder, input.binder))
      throw new Refusal(ExternalAuthErrorCode.ExternalStateInvalid.code);
    if (input.query.has('error')) throw new Refusal(ExternalAuthErrorCode.ExternalLoginFailed.code);

    let claims: oidc.IDToken | undefined;
    try {
      const current = new URL(flow.redirectUri);
      current.search = input.query.toString();
      const configuration = await discover(p);
      const tokens = await (await loadOpenidClient()).authorizationCodeGrant(configuration, current, {
        expectedState: state,
        expectedNonce: flow.nonce,
        ...(flow.verifier ? { pkceCodeVerifier: flow.verifier } : {}),
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      logger.warn('External login refused by the OpenID checks.', {
        provider: p.Code,
        reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        // openid-client names the failed check here (e.g. `{ claim: 'nonce' }` or the `iss` parameter).
        detail: describeCause(error),
      });
      throw new Refusal(ExternalAuthErrorCode.ExternalLoginFailed.code);
    }
    if (!claims?.sub || claims.sub.length > MAX_SUBJECT_LENGTH)
      throw new Refusal(ExternalAuthErrorCode.ExternalLoginFailed.code);
    const displayName =
      (typeof claims.name === 'string' && claims.name) ||
      (typeof claims.preferred_username === 'string' && claims.preferred_username) ||
      (typeof claims.email === 'string' && claims.email) ||
      null;
    const row = {
      provider: p.Code,
      subject: claims.sub,
      displayName: displayName ? displayText(displayName).slice(0, 128) || null : null,
      createTime: deps.now(),
    };

    if (flow.bindUserId !== null) {
      await assertBindSessionLive(flow.bindUserId, flow.bindSessionId);
      const result = await repos.userExternal.bind({ ...row, userId: flow.bindUserId });
      if (result === 'taken')
        throw new Refusal(ExternalAuthErrorCode.ExternalIdentityBound.code, '', flow.bindUserId);
      return { outcome: { bind: p.Code } };
    }

    const bound = await repos.userExternal.find(p.Code, claims.sub);
    if (bound) {
      const user = await repos.users.findById(bound.userId);
      if (!user) throw new Refusal(ExternalAuthErrorCode.ExternalLoginFailed.code);
      return { outcome: await finishLogin(user, p, flow.binder) };
    }
    // Set when linking by name found an account it must not reach: the person proves it with its password.
    let privileged = false;
    if (s.linkByAccount) {
      const user = await linkCandidate(claims);
      if (user && !(await linkableByName(user))) privileged = true;
      else if (user) {
        // The subject is what identifies a person at the provider (names and addresses are reissued): an account
        // already bound to an identity there gets no second one by name; that takes an explicit bind or claim.
        // Checked and bound in one transaction, so two identities racing for one name bind one.
        const result = await repos.userExternal.bindFirstAtProvider({ ...row, userId: user.id });
        if (result === 'taken')
          throw new Refusal(ExternalAuthErrorCode.ExternalIdentityBound.code, user.account, user.id);
        if (result !== 'boundThere') return { outcome: await finishLogin(user, p, flow.binder) };
      }
    }
    if (s.provisioning && !privileged) {
      const userId = await provision(p, s, claims);
      const result = await repos.userExternal.bind({ ...row, userId });
      let user: SysUserRow | undefined;
      if (result === 'taken') {
        // A first login of the same identity running at once (a second tab) bound a user of its own first: the
        // one made here is removed again, not left without a way in, and this login signs in as the winner's.
        await repos.users.softDelete([userId], { userId: null, at: deps.now() });
        await repos.users.purge(userId);
        const winner = await repos.userExternal.find(p.Code, claims.sub);
        user = winner && (await repos.users.findById(winner.userId));
      } else user = await repos.users.findById(userId);
      if (!user) throw new Refusal(ExternalAuthErrorCode.ExternalIdentityBound.code);
      return { outcome: await finishLogin(user, p, flow.binder) };
    }
    const pendingLink = token();
    const pendingBinder = token();
    await cache.set(
      `${KEYS.pending}${pendingLink}`,
      {
        expiresAt: nowMs() + PENDING_TTL_MS,
        provider: p.Code,
        subject: claims.sub,
        displayName: row.displayName,
        binder: pendingBinder,
      } satisfies Pending,
      PENDING_TTL_MS,
    );
    return {
      outcome: { pendingLink, provider: p.Code, displayName: row.displayName ?? '' },
      pendingBinder,
    };
  }

  return {
    providers: () => list,
    provider: find,
    switches,
    newBinder: token,

    async authorizeUrl({ code, binder, requestOrigin, bind }) {
      const { p } = await enabledProvider(code);
      const configuration = await discover(p).catch((error: unknown) => {
        logger.warn('OpenID discovery failed.', { provider: p.Code, error });
        throw new BusinessError(ExternalAuthErrorCode.ExternalLoginFailed);
      });
      const client = await loadOpenidClient();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = p.UsePkce ? client.randomPKCECodeVerifier() : null;
      const uri = redirectUri(p, requestOrigin);
      const flow: Flow = {
        expiresAt: nowMs() + FLOW_TTL_MS,
        provider: p.Code,
        nonce,
        verifier,
        binder,
        redirectUri: uri,
        bindUserId: bind?.userId ?? null,
        bindSessionId: bind?.sessionId ?? null,
      };
      await cache.set(`${KEYS.flow}${state}`, flow, FLOW_TTL_MS);
      const scopes = new Set(['openid', ...p.Scopes.split(/\s+/).filter(Boolean)]);
      const parameters: Record<string, string> = {
        redirect_uri: uri,
        scope: [...scopes].join(' '),
        response_type: 'code',
        state,
        nonce,
      };
      if (verifier) {
        parameters.code_challenge = await client.calculatePKCECodeChallenge(verifier);
        parameters.code_challenge_method = 'S256';
      }
      return client.buildAuthorizationUrl(configuration, parameters);
    },

    async callback(input) {
      try {
        return await handle(input);
      } catch (error) {
        let refusal: Refusal;
        if (error instanceof Refusal) refusal = error;
        else if (isBusinessError(error)) refusal = new Refusal(error.code);
        else {
          logger.error('External login callback failed.', { error });
          refusal = new Refusal(ErrorCode.SystemError.code);
        }
        await deps.auth.securityEvents.record({
          account: refusal.account,
          userId: refusal.userId,
          resultCode: refusal.code,
          method: 'external',
          client: input.client,
        });
        return { outcome: { error: String(refusal.code) } };
      }
    },

    async exchange(ticket, binder, client) {
      // Taken whatever follows: a ticket tried from a foreign browser is spent, as a foreign pending link is.
      const taken = await takeLive<Ticket>(KEYS.ticket, ticket);
      let user: SysUserRow | undefined;
      try {
        if (!taken || !sameSecret(taken.binder, binder))
          throw new BusinessError(ExternalAuthErrorCode.ExternalTicketInvalid);
        user = await repos.users.findById(taken.userId);
        if (!user) throw new BusinessError(ExternalAuthErrorCode.ExternalTicketInvalid);
        if (!user.enabled) throw new BusinessError(ErrorCode.AccountDisabled);
        const issued = await deps.auth.openSession(user, client);
        await deps.auth.securityEvents.record({
          account: user.account,
          userId: user.id,
          resultCode: 0,
          method: 'external',
          client,
        });
        return issued;
      } catch (error) {
        const resultCode = isBusinessError(error) ? error.code : ErrorCode.SystemError.code;
        await deps.auth.securityEvents.record({
          account: user?.account ?? '',
          userId: user?.id ?? null,
          resultCode,
          method: 'external',
          client,
        });
        throw error;
      }
    },

    async claimPending(pendingLink, binder, userId) {
      const pending = await takeLive<Pending>(KEYS.pending, pendingLink);
      if (!pending || !sameSecret(pending.binder, binder))
        throw new BusinessError(ExternalAuthErrorCode.ExternalTicketInvalid);
      const result = await repos.userExternal.bind({
        userId,
        provider: pending.provider,
        subject: pending.subject,
        displayName: pending.displayName,
        createTime: deps.now(),
      });
      if (result === 'taken') throw new BusinessError(ExternalAuthErrorCode.ExternalIdentityBound);
    },
  };
}
