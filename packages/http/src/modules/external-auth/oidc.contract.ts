/**
 * External login over HTTP against a real OpenID provider (panva's certified `oidc-provider`) running in the
 * test process on a loopback port. A small browser (cookie jar per host, redirects followed by hand) drives
 * the whole flow: the service at `http://svc.test` (its app, in process), the provider over real HTTP.
 * Interactions at the provider are finished by the test itself (login as `nextAccount`, consent granted).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DbType } from '@svc/kernel';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from '../../testing/auth.js';
import {
  grantPermissions,
  setRuntimeConfig,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { addUser, lastSmsCode, post, type TestClock, testClock } from '../mfa/helpers.contract.js';
import { totpCode } from '../mfa/rfc6238.contract.js';
import { bindTotp } from '../mfa/totp.contract.js';
import { externalAuthModule } from './index.js';

const SVC = 'http://svc.test';
const RESULT_PATH = '/oauth/callback';

interface IdpAccount {
  name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
}

/**
 * The ID token of a token response re-signed with a key outside the provider's key set, same header (`kid`,
 * `alg`) and so the same length: what a tampered token response would carry.
 */
function foreignSigned(body: string): string {
  const answer = JSON.parse(body) as { id_token?: string };
  if (!answer.id_token) return body;
  const [header = '', payload = ''] = answer.id_token.split('.');
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string }).alg;
  if (alg !== 'RS256') throw new Error(`the test re-signs RS256 ID tokens, not ${alg}`);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url');
  return body.replace(answer.id_token, `${header}.${payload}.${signature}`);
}

/** The in-process provider; `nextAccount` is who logs in at the next interaction. */
async function startIdp(): Promise<{
  issuer: string;
  accounts: Map<string, IdpAccount>;
  next: { id: string };
  /**
   * `foreignSignature`: the next token responses carry ID tokens signed by a key the provider never published;
   * `idToken`: they carry this ID token (the provider's own, issued to someone else) instead of theirs.
   */
  tamper: { foreignSignature: boolean; idToken: string | null };
  close(): Promise<void>;
}> {
  const accounts = new Map<string, IdpAccount>();
  const next = { id: '' };
  const tamper: { foreignSignature: boolean; idToken: string | null } = {
    foreignSignature: false,
    idToken: null,
  };
  let provider: Provider | undefined;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const idp = provider as Provider;
    if (tamper.foreignSignature && req.method === 'POST' && req.url?.startsWith('/token')) {
      const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
      res.end = ((chunk?: unknown) =>
        end(chunk === undefined ? chunk : foreignSigned(String(chunk)))) as typeof res.end;
    }
    const swap = tamper.idToken;
    if (swap && req.method === 'POST' && req.url?.startsWith('/token')) {
      const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
      res.end = ((chunk?: unknown) => {
        if (chunk === undefined) return end(chunk);
        const body = JSON.parse(String(chunk)) as { id_token?: string };
        if (!body.id_token) return end(chunk);
        const swapped = JSON.stringify({ ...body, id_token: swap });
        if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(swapped));
        return end(swapped);
      }) as typeof res.end;
    }
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await idp.interactionDetails(req, res);
        const accountId = next.id;
        const grant = new idp.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await idp.interactionFinished(
          req,
          res,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    idp.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'svc',
        client_secret: 'svc-test-client-secret-0123456789',
        redirect_uris: [
          `${SVC}/api/v1/auth/external/corp/callback`,
          `${SVC}/api/v1/auth/external/nopkce/callback`,
        ],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        // Another application at the same provider: its ID tokens are not for the service.
        client_id: 'other',
        client_secret: 'other-test-client-secret-0123456789',
        redirect_uris: ['http://other.test/cb'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => false },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  return {
    issuer,
    accounts,
    next,
    tamper,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser: one cookie jar per host, no automatic redirects. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** The service instance this browser talks to (a load balancer may switch it). */
  constructor(public t: TestServer) {}

  /** Drops every cookie but the service's (a new login at the provider). */
  forgetOthers(): void {
    for (const host of this.jars.keys()) if (host !== new URL(SVC).host) this.jars.delete(host);
  }

  cookie(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }

  async get(url: URL, init: { method?: string; headers?: Record<string, string>; json?: unknown } = {}) {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    this.jars.set(url.host, jar);
    const headers: Record<string, string> = { ...init.headers };
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res =
      url.origin === SVC
        ? await this.t.request(url.href, { ...init, headers })
        : await fetch(url, { method: init.method ?? 'GET', headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /**
   * Follows redirects from `start` until the service's callback (returned unrequested when `stopAtCallback`)
   * or the frontend result path (returned).
   */
  async follow(start: URL, stopAtCallback = false): Promise<URL> {
    let url = start;
    for (let hop = 0; hop < 20; hop++) {
      if (stopAtCallback && url.origin === SVC && url.pathname.endsWith('/callback')) return url;
      const res = await this.get(url);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location)
        throw new Error(`${url.href} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      const next = new URL(location, url.origin === SVC ? SVC : url);
      if (next.origin === SVC && next.pathname === RESULT_PATH) return next;
      url = next;
    }
    throw new Error('too many redirects');
  }
}

export function defineOidcContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`External login (OIDC) on ${dbType} with ${cache}`, () => {
    const clock: TestClock = testClock();
    let t: TestServer;
    let idp: Awaited<ReturnType<typeof startIdp>>;

    const authorizeUrl = (provider = 'corp') => new URL(`${SVC}/api/v1/auth/external/${provider}/authorize`);

    /** A full login in a fresh browser as the IdP account `sub`; answers the result URL. */
    async function externalLogin(sub: string, provider = 'corp', browser = new Browser(t)) {
      idp.next.id = sub;
      return { result: await browser.follow(authorizeUrl(provider)), browser };
    }

    const env = (): Record<string, string> => ({
      Service__Security__RateLimit__Enabled: 'false',
      Service__ExternalAuth__CallbackBaseUrl: SVC,
      Service__ExternalAuth__Oidc__0__Code: 'corp',
      Service__ExternalAuth__Oidc__0__DisplayName: 'Corp SSO',
      Service__ExternalAuth__Oidc__0__Authority: idp.issuer,
      Service__ExternalAuth__Oidc__0__ClientId: 'svc',
      Service__ExternalAuth__Oidc__0__ClientSecret: 'svc-test-client-secret-0123456789',
      Service__ExternalAuth__Oidc__1__Code: 'nopkce',
      Service__ExternalAuth__Oidc__1__Authority: idp.issuer,
      Service__ExternalAuth__Oidc__1__ClientId: 'svc',
      Service__ExternalAuth__Oidc__1__ClientSecret: 'svc-test-client-secret-0123456789',
      Service__ExternalAuth__Oidc__1__UsePkce: 'false',
    });

    async function setSwitch(key: string, value: string) {
      await t.server.database.repos.configs.insertIfAbsent({
        configKey: key,
        configValue: value,
        name: key,
        valueType: 'string',
      });
      await setRuntimeConfig(t, key, value);
    }

    /** `POST /exchange` from `browser` (its binder cookie), or from a client without cookies. */
    async function exchange(ticket: string, browser?: Browser) {
      if (!browser) return post(t, '/api/v1/auth/external/exchange', { ticket });
      const res = await browser.get(new URL(`${SVC}/api/v1/auth/external/exchange`), {
        method: 'POST',
        json: { ticket },
      });
      return { status: res.status, body: await json(res) };
    }

    async function loginLogCodes(): Promise<number[]> {
      return (await loginLogRows()).map((r) => r.resultCode);
    }
    async function loginLogRows() {
      const { db, tables } = t.server.database.database;
      return (await db.select().from(tables.sysLoginLog)).sort((a, b) => a.id - b.id);
    }

    beforeAll(async () => {
      idp = await startIdp();
      t = await startTestServer({
        dbType,
        cache,
        now: clock.now,
        env: env(),
      });
      idp.accounts.set('u-new', {
        name: 'New Person',
        preferred_username: 'newbie',
        email: 'new@corp.test',
        email_verified: true,
      });
      idp.accounts.set('u-carol', {
        name: 'Carol',
        preferred_username: 'carol-ext',
        email: 'carol@corp.test',
        email_verified: true,
      });
      idp.accounts.set('u-unverified', { name: 'Mallory', email: 'dave@corp.test', email_verified: false });
      idp.accounts.set('u-pending', { name: 'Pat', preferred_username: 'pat-ext' });
      idp.accounts.set('u-bind', { name: 'Binder' });
      idp.accounts.set('u-totp', { preferred_username: 'tina' });
    });
    afterAll(async () => {
      await t?.close();
      await idp?.close();
    });

    it('sets no cookie when the provider is unknown or off: authorize redirects with 40029, bind answers it', async () => {
      await addUser(t, { account: 'no-cookie' });
      const login = await post(t, '/api/v1/auth/login', {
        account: 'no-cookie',
        password: TEST_USER_PASSWORD,
      });
      const auth = bearer(login.body.data.accessToken);
      // `corp` is configured but still off here; `ghost` is configured nowhere.
      for (const provider of ['ghost', 'corp']) {
        const authorize = await t.request(`${SVC}/api/v1/auth/external/${provider}/authorize`);
        const location = new URL(authorize.headers.get('location') ?? '', SVC);
        expect({ provider, status: authorize.status, error: location.searchParams.get('error') }).toEqual({
          provider,
          status: 302,
          error: '40029',
        });
        expect({ provider, cookies: authorize.headers.getSetCookie() }).toEqual({ provider, cookies: [] });
        const bind = await t.request(`${SVC}/api/v1/auth/external/${provider}/bind`, {
          method: 'POST',
          headers: auth,
        });
        expect({ provider, code: (await json(bind)).code }).toEqual({ provider, code: 40029 });
        expect({ provider, cookies: bind.headers.getSetCookie() }).toEqual({ provider, cookies: [] });
      }
    });

    it('keeps providers off by default (40029) and lists only enabled ones', async () => {
      const { result } = await externalLogin('u-new');
      expect(result.searchParams.get('error')).toBe('40029');
      expect((await t.request('/api/v1/auth/external/providers').then(json)).data).toEqual([]);
      await setSwitch('sys.externalauth.corp.enabled', 'true');
      await setSwitch('sys.externalauth.nopkce.enabled', 'true');
      const list = await t.request('/api/v1/auth/external/providers').then(json);
      expect(list.data).toContainEqual({ code: 'corp', displayName: 'Corp SSO', icon: '' });
    });

    it('offers a pending link when provisioning is off, and a password login claims it', async () => {
      await addUser(t, { account: 'pat' });
      const { result, browser } = await externalLogin('u-pending');
      expect(result.searchParams.get('provider')).toBe('corp');
      expect(result.searchParams.get('displayName')).toBe('Pat');
      const pendingLink = result.searchParams.get('pendingLink') ?? '';
      expect(pendingLink).not.toBe('');
      const login = await post(t, '/api/v1/auth/login', { account: 'pat', password: TEST_USER_PASSWORD });
      const auth = bearer(login.body.data.accessToken);
      // Without the pending cookie (another browser) the link is refused, and it is spent.
      const foreign = await post(t, '/api/v1/auth/external/pending-link/claim', { pendingLink }, auth);
      expect(foreign.body.code).toBe(40032);
      const again = await externalLogin('u-pending', 'corp', browser);
      const link2 = again.result.searchParams.get('pendingLink') ?? '';
      const claim = await browser.get(new URL(`${SVC}/api/v1/auth/external/pending-link/claim`), {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        json: { pendingLink: link2 },
      });
      expect((await json(claim)).code).toBe(0);
      // Now the identity logs in as pat.
      const { result: linked, browser: linkedBrowser } = await externalLogin('u-pending');
      const out = await exchange(linked.searchParams.get('ticket') ?? '', linkedBrowser);
      expect(out.body.code).toBe(0);
      expect(out.body.data.account).toBe('pat');
    });

    it('provisions a user on first login, then logs the same identity in; tickets are single-use and expire', async () => {
      await setSwitch('sys.externalauth.corp.provisioning', 'true');
      await setSwitch('sys.externalauth.corp.defaultOrgId', '1');
      const { result, browser } = await externalLogin('u-new');
      const ticket = result.searchParams.get('ticket') ?? '';
      expect(ticket).not.toBe('');
      expect(result.href).not.toMatch(/access|token=ey/i);
      const out = await exchange(ticket, browser);
      expect(out.body.code).toBe(0);
      expect(out.body.data.account).toBe('newbie');
      expect(out.body.data.accessToken).toMatch(/^ey/);
      const user = await t.server.database.repos.users.findByAccount('newbie');
      expect(user?.orgId).toBe(1);
      expect(user?.email).toBe('new@corp.test');
      // Reuse of the ticket is refused.
      expect((await exchange(ticket, browser)).body.code).toBe(40032);
      // A second login finds the binding (no second user) and its ticket dies after 120 s.
      const second = await externalLogin('u-new');
      const late = second.result.searchParams.get('ticket') ?? '';
      clock.advance(121);
      expect((await exchange(late, second.browser)).body.code).toBe(40032);
      expect((await t.server.database.repos.userExternal.find('corp', 'u-new'))?.userId).toBe(user?.id);
      const codes = await loginLogCodes();
      expect(codes).toContain(40032);
      // The login and the refused tickets are external logins in the log.
      const rows = await loginLogRows();
      expect(rows.filter((r) => r.userId === user?.id).map((r) => `${r.resultCode} ${r.method}`)).toEqual([
        '0 external',
      ]);
      expect(new Set(rows.filter((r) => r.resultCode === 40032).map((r) => r.method))).toEqual(
        new Set(['external']),
      );
      await setSwitch('sys.externalauth.corp.provisioning', 'false');
    });

    it('links by account only through a verified email or preferred_username when linkByAccount is on', async () => {
      await addUser(t, { account: 'carol@corp.test' });
      await addUser(t, { account: 'dave@corp.test' });
      // Off: no link, a pending link instead.
      const off = await externalLogin('u-carol');
      expect(off.result.searchParams.get('pendingLink')).toBeTruthy();
      await setSwitch('sys.externalauth.corp.linkByAccount', 'true');
      const { result, browser } = await externalLogin('u-carol');
      const out = await exchange(result.searchParams.get('ticket') ?? '', browser);
      expect(out.body.data.account).toBe('carol@corp.test');
      // An unverified email that equals an account does not link.
      const unverified = await externalLogin('u-unverified');
      expect(unverified.result.searchParams.get('ticket')).toBeNull();
      expect(unverified.result.searchParams.get('pendingLink')).toBeTruthy();
      await setSwitch('sys.externalauth.corp.linkByAccount', 'false');
    });

    it('refuses a disabled user with 40005', async () => {
      const user = await t.server.database.repos.users.findByAccount('newbie');
      const users = t.server.database.repos.users;
      const stamp = { userId: null, at: new Date() };
      await users.update(user?.id ?? 0, { enabled: false }, stamp);
      const { result } = await externalLogin('u-new');
      expect(result.searchParams.get('error')).toBe('40005');
      await users.update(user?.id ?? 0, { enabled: true }, stamp);
    });

    it('refuses a replayed state, a foreign browser, a provider error and a mismatched issuer', async () => {
      idp.next.id = 'u-new';
      const browser = new Browser(t);
      const callback = await browser.follow(authorizeUrl(), true);
      expect(browser.cookie('svc.test', 'svc_ext_binder')).toBeTruthy();

      // Another browser with the same callback URL: no binder cookie -> 40030 (and the state is spent).
      const foreign = await new Browser(t).follow(callback);
      expect(foreign.searchParams.get('error')).toBe('40030');
      const replay = await browser.follow(callback);
      expect(replay.searchParams.get('error')).toBe('40030');

      // Issuer mismatch: the RFC 9207 `iss` of the authorization response is not the provider's.
      const second = await browser.follow(authorizeUrl(), true);
      expect(second.searchParams.get('iss')).toBe(idp.issuer);
      second.searchParams.set('iss', 'http://evil.test');
      expect((await browser.follow(second)).searchParams.get('error')).toBe('40031');

      // The provider answers an error.
      const third = await browser.follow(authorizeUrl(), true);
      const denied = new URL(third.pathname, SVC);
      denied.searchParams.set('error', 'access_denied');
      denied.searchParams.set('state', third.searchParams.get('state') ?? '');
      expect((await browser.follow(denied)).searchParams.get('error')).toBe('40031');

      // An expired state (5 minutes on the service clock).
      const fourth = await browser.follow(authorizeUrl(), true);
      clock.advance(301);
      expect((await browser.follow(fourth)).searchParams.get('error')).toBe('40030');

      const codes = await loginLogCodes();
      expect(codes).toEqual(expect.arrayContaining([40030, 40031]));
    });

    it('refuses an ID token carrying another flow nonce (code of flow B on the state of flow A)', async () => {
      idp.next.id = 'u-new';
      const browser = new Browser(t);
      // Two flows in one browser (no PKCE on this provider, so only the nonce can tell them apart).
      const first = await browser.get(authorizeUrl('nopkce'));
      const urlA = new URL(first.headers.get('location') ?? '');
      const second = await browser.get(authorizeUrl('nopkce'));
      const urlB = new URL(second.headers.get('location') ?? '');
      expect(urlA.searchParams.get('nonce')).not.toBe(urlB.searchParams.get('nonce'));
      const callbackB = await browser.follow(urlB, true);
      const mixed = new URL(callbackB.href);
      mixed.searchParams.set('state', urlA.searchParams.get('state') ?? '');
      expect((await browser.follow(mixed)).searchParams.get('error')).toBe('40031');
      // The refusal came from the ID-token check of openid-client (the code itself was good).
      expect(t.logs.some((line) => line.includes('claim=nonce'))).toBe(true);
    });

    it('binds and unbinds an identity for a signed-in user, refusing one bound to another user', async () => {
      await addUser(t, { account: 'bob' });
      const login = await post(t, '/api/v1/auth/login', { account: 'bob', password: TEST_USER_PASSWORD });
      const auth = bearer(login.body.data.accessToken);
      const browser = new Browser(t);
      const start = await browser.get(new URL(`${SVC}/api/v1/auth/external/corp/bind`), {
        method: 'POST',
        headers: auth,
      });
      const { authorizeUrl: url } = (await json(start)).data;
      idp.next.id = 'u-bind';
      const bound = await browser.follow(new URL(url));
      expect(bound.searchParams.get('bind')).toBe('corp');
      const list = await t.request('/api/v1/auth/external/bindings', { headers: auth }).then(json);
      expect(list.data).toEqual([expect.objectContaining({ provider: 'corp', displayName: 'Binder' })]);

      // The identity of another user (u-new belongs to newbie) cannot be bound to bob.
      browser.forgetOthers();
      idp.next.id = 'u-new';
      const third = await browser.get(new URL(`${SVC}/api/v1/auth/external/corp/bind`), {
        method: 'POST',
        headers: auth,
      });
      const refused = await browser.follow(new URL((await json(third)).data.authorizeUrl));
      expect(refused.searchParams.get('error')).toBe('40033');

      const del = await t.request('/api/v1/auth/external/corp/binding', { method: 'DELETE', headers: auth });
      expect((await json(del)).code).toBe(0);
      const del2 = await t.request('/api/v1/auth/external/corp/binding', { method: 'DELETE', headers: auth });
      expect((await json(del2)).code).toBe(40034);
      expect(await t.server.database.repos.userExternal.find('corp', 'u-bind')).toBeUndefined();
    });

    it('sends a TOTP-bound user to the TOTP step, completed with the existing TOTP login', async () => {
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      await addUser(t, { account: 'tina' });
      const { seed } = await bindTotp(t, clock, 'tina');
      await setSwitch('sys.externalauth.corp.linkByAccount', 'true');
      const { result } = await externalLogin('u-totp');
      expect(result.searchParams.get('error')).toBe('40018');
      expect(result.searchParams.get('ticket')).toBeNull();
      const challengeId = result.searchParams.get('totpChallenge') ?? '';
      const done = await post(t, '/api/v1/auth/login/totp', {
        challengeId,
        code: totpCode(seed, clock.now()),
      });
      expect(done.body.code).toBe(0);
      expect(done.body.data.account).toBe('tina');
      // The provider's login only led to the step (no row); the step opened the session and logged it.
      const tina = (await loginLogRows()).filter((r) => r.userId === done.body.data.userId);
      expect(tina.map((r) => `${r.resultCode} ${r.method}`)).toEqual(['0 totp']);
      await setSwitch('sys.externalauth.corp.linkByAccount', 'false');
    });

    it('sends a user with a phone to the SMS step when the SMS second factor is on', async () => {
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
      await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'true');
      await addUser(t, { account: 'sam', phone: '+15550001111' });
      idp.accounts.set('u-sam', { preferred_username: 'sam' });
      await setSwitch('sys.externalauth.corp.linkByAccount', 'true');
      try {
        const { result } = await externalLogin('u-sam');
        expect(result.searchParams.get('error')).toBe('40009');
        expect(result.searchParams.get('ticket')).toBeNull();
        const challengeId = result.searchParams.get('smsChallenge') ?? '';
        const code = lastSmsCode(t, 'mfa', '+15550001111');
        const done = await post(t, '/api/v1/auth/login/sms', { challengeId, code });
        expect(done.body.code).toBe(0);
        expect(done.body.data.account).toBe('sam');
      } finally {
        await setRuntimeConfig(t, 'sys.security.mfa.enabled', 'false');
        await setSwitch('sys.externalauth.corp.linkByAccount', 'false');
      }
    });

    it('exchanges a ticket only from the browser that ran the flow (login CSRF); a foreign try spends it', async () => {
      // The attacker's own login, its ticket sent to a victim whose browser has no binder or another one.
      const attacker = await externalLogin('u-new');
      const ticket = attacker.result.searchParams.get('ticket') ?? '';
      expect(ticket).not.toBe('');
      expect((await exchange(ticket)).body.code).toBe(40032);
      expect((await exchange(ticket, attacker.browser)).body.code).toBe(40032);
      const again = await externalLogin('u-new');
      const victim = new Browser(t);
      await victim.get(authorizeUrl());
      expect(victim.cookie('svc.test', 'svc_ext_binder')).toBeTruthy();
      const refused = await exchange(again.result.searchParams.get('ticket') ?? '', victim);
      expect(refused.body.code).toBe(40032);
      expect(refused.body.data).toBeFalsy();
      // The callback keeps the binder cookie alive as long as the ticket (a flow finished near its 5 minutes).
      idp.next.id = 'u-new';
      const late = new Browser(t);
      const callback = await late.follow(authorizeUrl(), true);
      const answer = await late.get(callback);
      const binderCookie = answer.headers.getSetCookie().find((line) => line.startsWith('svc_ext_binder='));
      expect(binderCookie).toMatch(/Max-Age=120/i);
      // The browser that ran the flow exchanges its own ticket.
      const own = await externalLogin('u-new');
      const out = await exchange(own.result.searchParams.get('ticket') ?? '', own.browser);
      expect(out.body.code).toBe(0);
      expect(out.body.data.account).toBe('newbie');
    });

    it('binds nothing when the session that started the bind ended before the callback (40030)', async () => {
      await addUser(t, { account: 'gina' });
      idp.accounts.set('u-thief', { name: 'Thief' });
      const login = await post(t, '/api/v1/auth/login', { account: 'gina', password: TEST_USER_PASSWORD });
      const stolen = bearer(login.body.data.accessToken);
      const browser = new Browser(t);
      const start = await browser.get(new URL(`${SVC}/api/v1/auth/external/corp/bind`), {
        method: 'POST',
        headers: stolen,
      });
      idp.next.id = 'u-thief';
      const callback = await browser.follow(new URL((await json(start)).data.authorizeUrl), true);
      // The owner notices and signs the stolen session out before the attacker's callback arrives.
      expect((await post(t, '/api/v1/auth/logout', {}, stolen)).body.code).toBe(0);
      const result = await browser.follow(callback);
      expect(result.searchParams.get('error')).toBe('40030');
      expect(await t.server.database.repos.userExternal.find('corp', 'u-thief')).toBeUndefined();
    });

    it('provisions accounts under the account-name rules and cleans display names', async () => {
      await setSwitch('sys.externalauth.corp.provisioning', 'true');
      idp.accounts.set('u-lookalike', {
        preferred_username: 'superAdmin\u200b',
        name: 'Eve\u202Eevil\u0007',
      });
      idp.accounts.set('u-fullwidth', { preferred_username: 'ｆｕｌｌ' });
      const lookalike = await externalLogin('u-lookalike');
      const out = await exchange(lookalike.result.searchParams.get('ticket') ?? '', lookalike.browser);
      expect(out.body.code).toBe(0);
      // Refused by the rules (a zero-width space): a generated name, never the look-alike.
      expect(out.body.data.account).toMatch(/^corp_[A-Za-z0-9_-]{10}$/);
      const user = await t.server.database.repos.users.findByAccount(out.body.data.account);
      expect(user?.realName).toBe('Eveevil');
      expect((await t.server.database.repos.userExternal.find('corp', 'u-lookalike'))?.displayName).toBe(
        'Eveevil',
      );
      const full = await externalLogin('u-fullwidth');
      const fullOut = await exchange(full.result.searchParams.get('ticket') ?? '', full.browser);
      expect(fullOut.body.data.account).toBe('full');
      await setSwitch('sys.externalauth.corp.provisioning', 'false');
    });

    it('checks the ID token signature against the provider key set (40031 for a foreign key)', async () => {
      idp.tamper.foreignSignature = true;
      try {
        const { result } = await externalLogin('u-new');
        expect(result.searchParams.get('error')).toBe('40031');
      } finally {
        idp.tamper.foreignSignature = false;
      }
      const { result } = await externalLogin('u-new');
      expect(result.searchParams.get('ticket')).toBeTruthy();
    });

    it('answers bad input with an error envelope, never a crash', async () => {
      const bad = await t.request(`${SVC}/api/v1/auth/external/a%20b/authorize`);
      expect((await json(bad)).code).toBe(48000);
      expect((await post(t, '/api/v1/auth/external/exchange', {})).body.code).toBe(48000);
      expect((await exchange('x'.repeat(129))).body.code).toBe(48000);
      expect((await exchange('never-issued')).body.code).toBe(40032);
      const noState = await new Browser(t).follow(
        new URL(`${SVC}/api/v1/auth/external/corp/callback?code=x`),
      );
      expect(noState.searchParams.get('error')).toBe('40030');
      const anonymous = await t.request('/api/v1/auth/external/bindings');
      expect(anonymous.status).toBe(401);
    });

    it('reads provisioning ids only as plain decimal digits (0x10, 1e1 and 2.0 name no role or organisation)', async () => {
      const switches = () => t.server.modules.servicesOf(externalAuthModule).service.switches('nopkce');
      try {
        await setSwitch('sys.externalauth.nopkce.defaultRoleIds', '1, 0x10 ,1e1;2.0 3 +4 -5 0');
        await setSwitch('sys.externalauth.nopkce.defaultOrgId', ' 6 ');
        expect(await switches()).toMatchObject({ defaultRoleIds: [1, 3, 4], defaultOrgId: 6 });
        for (const org of ['0x6', '6e0', '6.0', '0', '']) {
          await setSwitch('sys.externalauth.nopkce.defaultOrgId', org);
          expect({ org, id: (await switches()).defaultOrgId }).toEqual({ org, id: null });
        }
      } finally {
        await setSwitch('sys.externalauth.nopkce.defaultRoleIds', '');
        await setSwitch('sys.externalauth.nopkce.defaultOrgId', '');
      }
    });

    it('lets exactly one of two racing binds of one identity win', async () => {
      const a = await addUser(t, { account: 'race-a' });
      const b = await addUser(t, { account: 'race-b' });
      const repo = t.server.database.repos.userExternal;
      const row = { provider: 'corp', subject: 'u-race', displayName: null, createTime: new Date() };
      const results = await Promise.all([repo.bind({ ...row, userId: a }), repo.bind({ ...row, userId: b })]);
      expect(results.sort()).toEqual(['bound', 'taken']);
      expect(await repo.bind({ ...row, userId: (await repo.find('corp', 'u-race'))?.userId ?? 0 })).toBe(
        'same',
      );
    });

    it('refuses a provider switched off between authorize and callback (40029)', async () => {
      idp.next.id = 'u-new';
      const browser = new Browser(t);
      const callback = await browser.follow(authorizeUrl(), true);
      await setSwitch('sys.externalauth.corp.enabled', 'false');
      expect((await browser.follow(callback)).searchParams.get('error')).toBe('40029');
      await setSwitch('sys.externalauth.corp.enabled', 'true');
    });

    it.runIf(cache === 'Redis')(
      'takes state and ticket across two instances sharing Redis, each once',
      async () => {
        const t2 = await startTestServer({
          dbType,
          cache,
          now: clock.now,
          reuse: { database: t.database, contentRoot: t.contentRoot },
          env: { ...env(), Service__Cache__Redis__KeyPrefix: t.server.config.service.Cache.Redis.KeyPrefix },
        });
        try {
          idp.next.id = 'u-new';
          const browser = new Browser(t);
          const callback = await browser.follow(authorizeUrl(), true);
          browser.t = t2;
          const result = await browser.follow(callback);
          const ticket = result.searchParams.get('ticket') ?? '';
          expect(ticket).not.toBe('');
          browser.t = t;
          expect((await browser.follow(callback)).searchParams.get('error')).toBe('40030');
          expect((await exchange(ticket, browser)).body.code).toBe(0);
          const other = await t2.request('/api/v1/auth/external/exchange', { json: { ticket } });
          expect((await json(other)).code).toBe(40032);
        } finally {
          await t2.stop();
        }
      },
    );

    it('claims a pending link only after a re-authentication while second factors are on (40024), as a bind', async () => {
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      try {
        const userId = await addUser(t, { account: 'quinn' });
        idp.accounts.set('u-quinn', { name: 'Quinn' });
        const login = await post(t, '/api/v1/auth/login', { account: 'quinn', password: TEST_USER_PASSWORD });
        const auth = bearer(login.body.data.accessToken);
        // Someone holding quinn's access token (and nothing else) brings an identity of their own.
        const { result, browser } = await externalLogin('u-quinn');
        const pendingLink = result.searchParams.get('pendingLink') ?? '';
        expect(pendingLink).not.toBe('');
        const claim = () =>
          browser.get(new URL(`${SVC}/api/v1/auth/external/pending-link/claim`), {
            method: 'POST',
            headers: auth,
            json: { pendingLink },
          });
        const refused = await claim();
        expect({ status: refused.status, code: (await json(refused)).code }).toEqual({
          status: 403,
          code: 40024,
        });
        expect(await t.server.database.repos.userExternal.find('corp', 'u-quinn')).toBeUndefined();
        // With the password proven again the same link (not spent by the refusal) binds.
        const reauth = await post(
          t,
          '/api/v1/auth/reauth',
          { method: 'password', password: TEST_USER_PASSWORD },
          auth,
        );
        expect(reauth.body.code).toBe(0);
        expect((await json(await claim())).code).toBe(0);
        expect((await t.server.database.repos.userExternal.find('corp', 'u-quinn'))?.userId).toBe(userId);
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
      }
    });

    it('leaves one user behind when two first logins of one identity provision at once, and signs both in', async () => {
      // Two tabs finish a first login of the same identity together; its name is taken, so each makes a
      // generated account. Both look the identity up before either creates anything (held here until both ask).
      await addUser(t, { account: 'twice' });
      idp.accounts.set('u-twice', { preferred_username: 'twice' });
      const repo = t.server.database.repos.userExternal;
      const realFind = repo.find;
      let waiting = 0;
      let bothAsked: () => void = () => {};
      const asked = new Promise<void>((resolve) => {
        bothAsked = resolve;
      });
      repo.find = async (provider, subject) => {
        if (subject === 'u-twice' && waiting < 2) {
          waiting++;
          if (waiting === 2) bothAsked();
          await asked;
        }
        return realFind.call(repo, provider, subject);
      };
      const { db, tables } = t.server.database.database;
      const users = () => db.select().from(tables.sysUser);
      const lastBefore = Math.max(...(await users()).map((u) => u.id));
      await setSwitch('sys.externalauth.corp.provisioning', 'true');
      try {
        idp.next.id = 'u-twice';
        const tabs = [new Browser(t), new Browser(t)];
        const callbacks: URL[] = [];
        for (const tab of tabs) callbacks.push(await tab.follow(authorizeUrl(), true));
        const results = await Promise.all(tabs.map((tab, i) => tab.follow(callbacks[i] as URL)));
        const accounts: string[] = [];
        for (const [i, result] of results.entries()) {
          const out = await exchange(result.searchParams.get('ticket') ?? '', tabs[i]);
          expect({ tab: i, code: out.body.code }).toEqual({ tab: i, code: 0 });
          accounts.push(out.body.data.account);
        }
        expect(accounts[0]).toMatch(/^corp_/);
        expect(accounts[1]).toBe(accounts[0]);
        // No second account was left behind (nothing binds it, nothing signs it in).
        expect((await users()).filter((u) => u.id > lastBefore).map((u) => u.account)).toEqual([accounts[0]]);
      } finally {
        repo.find = realFind;
        await setSwitch('sys.externalauth.corp.provisioning', 'false');
      }
    });

    it('links no second identity by account to a user already bound at the provider (a reissued name)', async () => {
      const rita = await addUser(t, { account: 'rita' });
      const repo = t.server.database.repos.userExternal;
      await repo.bind({
        userId: rita,
        provider: 'corp',
        subject: 'u-rita',
        displayName: null,
        createTime: new Date(),
      });
      // The provider gave rita's name and address to another person (a new subject).
      idp.accounts.set('u-rita-2', { preferred_username: 'rita', email: 'rita', email_verified: true });
      await setSwitch('sys.externalauth.corp.linkByAccount', 'true');
      try {
        const { result } = await externalLogin('u-rita-2');
        expect(result.searchParams.get('ticket')).toBeNull();
        expect(result.searchParams.get('pendingLink')).toBeTruthy();
        expect(await repo.find('corp', 'u-rita-2')).toBeUndefined();
        // An account without an identity there is still linked by its name.
        await addUser(t, { account: 'rudi' });
        idp.accounts.set('u-rudi', { preferred_username: 'rudi' });
        const rudi = await externalLogin('u-rudi');
        const out = await exchange(rudi.result.searchParams.get('ticket') ?? '', rudi.browser);
        expect(out.body.data.account).toBe('rudi');
      } finally {
        await setSwitch('sys.externalauth.corp.linkByAccount', 'false');
      }
    });

    it('never links by name to the super admin or a high-sensitivity role holder, however the name is spelt', async () => {
      // Attack: an identity at the provider named like a privileged account signs in as it with no password.
      const fullWidth = (text: string) =>
        [...text].map((ch) => String.fromCodePoint((ch.codePointAt(0) ?? 0) + 0xfee0)).join('');
      const spellings = (account: string) => [
        account,
        account.toUpperCase(),
        account.toLowerCase(),
        fullWidth(account),
        ` ${account} `,
        account.replace('i', '\u00ed'),
        account.replace('i', '\u0130'),
      ];
      const boss = await grantPermissions(t, { account: 'bigboss', permissions: ['POST:/api/v1/sys/user'] });
      await grantPermissions(t, { account: 'boss@corp.test', permissions: ['DELETE:/api/v1/sys/log/op'] });
      // A code an administrator added to the set counts as well as a built-in one.
      await grantPermissions(t, { account: 'auditor', permissions: ['GET:/api/v1/sys/log/op/page'] });
      const added = await t.server.deps.core.mfa.highSensitivity.add(
        { permissionCode: 'GET:/api/v1/sys/log/op/page' },
        null,
      );
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      const { seed: bossSeed } = await bindTotp(t, clock, 'bigboss');
      const cases: Array<[string, IdpAccount]> = [
        ...spellings('superAdmin').map((name): [string, IdpAccount] => [name, { preferred_username: name }]),
        ...spellings('bigboss').map((name): [string, IdpAccount] => [name, { preferred_username: name }]),
        ['auditor', { preferred_username: 'auditor' }],
        ['AUDITOR', { preferred_username: 'AUDITOR' }],
        ['email BOSS@corp.test', { email: 'BOSS@corp.test', email_verified: true }],
        ['email superadmin', { email: 'superadmin', email_verified: true, preferred_username: 'nobody-x' }],
      ];
      await setSwitch('sys.externalauth.corp.linkByAccount', 'true');
      const { db, tables } = t.server.database.database;
      const userCount = async () => (await db.select().from(tables.sysUser)).length;
      try {
        for (const provisioning of ['false', 'true']) {
          await setSwitch('sys.externalauth.corp.provisioning', provisioning);
          const before = await userCount();
          for (const [i, [name, claims]] of cases.entries()) {
            const sub = `u-priv-${provisioning}-${i}`;
            idp.accounts.set(sub, claims);
            const { result } = await externalLogin(sub);
            expect({ name, provisioning, ticket: result.searchParams.get('ticket') }).toEqual({
              name,
              provisioning,
              ticket: null,
            });
            expect({ name, provisioning, pending: Boolean(result.searchParams.get('pendingLink')) }).toEqual({
              name,
              provisioning,
              pending: true,
            });
            expect(await t.server.database.repos.userExternal.find('corp', sub)).toBeUndefined();
          }
          // No look-alike account was provisioned in their place either.
          expect(await userCount()).toBe(before);
        }
      } finally {
        await setSwitch('sys.externalauth.corp.provisioning', 'false');
      }
      // The super admin's pending link is theirs after their password and a re-authentication.
      try {
        idp.accounts.set('u-priv-claim', { preferred_username: 'SUPERADMIN' });
        const { result, browser } = await externalLogin('u-priv-claim');
        const pendingLink = result.searchParams.get('pendingLink') ?? '';
        const login = await post(t, '/api/v1/auth/login', {
          account: 'superAdmin',
          password: TEST_ADMIN_PASSWORD,
        });
        const auth = bearer(login.body.data.accessToken);
        const claim = () =>
          browser.get(new URL(`${SVC}/api/v1/auth/external/pending-link/claim`), {
            method: 'POST',
            headers: auth,
            json: { pendingLink },
          });
        expect((await json(await claim())).code).toBe(40024);
        const reauth = await post(
          t,
          '/api/v1/auth/reauth',
          { method: 'password', password: TEST_ADMIN_PASSWORD },
          auth,
        );
        expect(reauth.body.code).toBe(0);
        expect((await json(await claim())).code).toBe(0);
        const superAdmin = await t.server.database.repos.users.findByAccount('superAdmin');
        expect(superAdmin?.isSuperAdmin).toBe(true);
        expect((await t.server.database.repos.userExternal.find('corp', 'u-priv-claim'))?.userId).toBe(
          superAdmin?.id,
        );
        // Claimed, the TOTP-bound role holder's identity still takes the TOTP step.
        idp.accounts.set('u-priv-boss', { preferred_username: 'bigboss' });
        const bossFlow = await externalLogin('u-priv-boss');
        const bossLogin = await post(t, '/api/v1/auth/login', {
          account: 'bigboss',
          password: TEST_USER_PASSWORD,
        });
        const bossSession = await post(t, '/api/v1/auth/login/totp', {
          challengeId: bossLogin.body.args.challengeId,
          code: totpCode(bossSeed, clock.now()),
        });
        const bossAuth = bearer(bossSession.body.data.accessToken);
        clock.advance(30);
        expect(
          (
            await post(
              t,
              '/api/v1/auth/reauth',
              { method: 'totp', totpCode: totpCode(bossSeed, clock.now()) },
              bossAuth,
            )
          ).body.code,
        ).toBe(0);
        const bossClaim = await bossFlow.browser.get(
          new URL(`${SVC}/api/v1/auth/external/pending-link/claim`),
          {
            method: 'POST',
            headers: bossAuth,
            json: { pendingLink: bossFlow.result.searchParams.get('pendingLink') ?? '' },
          },
        );
        expect((await json(bossClaim)).code).toBe(0);
        const again = await externalLogin('u-priv-boss');
        expect(again.result.searchParams.get('error')).toBe('40018');
        expect(again.result.searchParams.get('ticket')).toBeNull();
        expect((await t.server.database.repos.userExternal.find('corp', 'u-priv-boss'))?.userId).toBe(boss);
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
        await t.server.deps.core.mfa.highSensitivity.remove(added.id);
        await setSwitch('sys.externalauth.corp.linkByAccount', 'false');
      }
    });

    it('links an ordinary account by its folded name exactly as the login folds it, and a TOTP-bound one takes its step', async () => {
      await addUser(t, { account: 'folda' });
      await addUser(t, { account: 'foldtotp' });
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      await setSwitch('sys.externalauth.corp.linkByAccount', 'true');
      try {
        const { seed } = await bindTotp(t, clock, 'foldtotp');
        idp.accounts.set('u-fold-1', { preferred_username: 'ＦＯＬＤＡ' });
        const folded = await externalLogin('u-fold-1');
        const out = await exchange(folded.result.searchParams.get('ticket') ?? '', folded.browser);
        expect(out.body.data.account).toBe('folda');
        // Not what the canonical form makes of it: no link (the collation alone may fold `ß` onto `ss`).
        await addUser(t, { account: 'strasse' });
        idp.accounts.set('u-fold-2', { preferred_username: 'straße' });
        expect((await externalLogin('u-fold-2')).result.searchParams.get('ticket')).toBeNull();
        idp.accounts.set('u-fold-3', { preferred_username: 'FoldTotp' });
        const step = await externalLogin('u-fold-3');
        expect(step.result.searchParams.get('error')).toBe('40018');
        expect(step.result.searchParams.get('ticket')).toBeNull();
        const done = await post(t, '/api/v1/auth/login/totp', {
          challengeId: step.result.searchParams.get('totpChallenge') ?? '',
          code: totpCode(seed, clock.now()),
        });
        expect(done.body.data.account).toBe('foldtotp');
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
        await setSwitch('sys.externalauth.corp.linkByAccount', 'false');
      }
    });

    it('links one of two identities racing for one account name at the provider; the other gets a pending link', async () => {
      const userId = await addUser(t, { account: 'racer' });
      idp.accounts.set('u-race-1', { preferred_username: 'racer' });
      idp.accounts.set('u-race-2', { preferred_username: 'RACER' });
      const users = t.server.database.repos.users;
      const realFind = users.findByAccount;
      let waiting = 0;
      let bothAsked: () => void = () => {};
      const asked = new Promise<void>((resolve) => {
        bothAsked = resolve;
      });
      // Both callbacks find the account before either binds (held here until both asked).
      users.findByAccount = async (account, options) => {
        if (account.toLowerCase() === 'racer' && waiting < 2) {
          waiting++;
          if (waiting === 2) bothAsked();
          await asked;
        }
        return realFind.call(users, account, options);
      };
      await setSwitch('sys.externalauth.corp.linkByAccount', 'true');
      try {
        const tabs = [new Browser(t), new Browser(t)];
        const callbacks: URL[] = [];
        for (const [i, tab] of tabs.entries()) {
          idp.next.id = `u-race-${i + 1}`;
          callbacks.push(await tab.follow(authorizeUrl(), true));
        }
        const results = await Promise.all(tabs.map((tab, i) => tab.follow(callbacks[i] as URL)));
        const tickets = results.filter((r) => r.searchParams.get('ticket')).length;
        const pending = results.filter((r) => r.searchParams.get('pendingLink')).length;
        expect({ tickets, pending }).toEqual({ tickets: 1, pending: 1 });
        const bound = (await t.server.database.repos.userExternal.listByUser(userId)).filter(
          (b) => b.provider === 'corp',
        );
        expect(bound).toHaveLength(1);
      } finally {
        users.findByAccount = realFind;
        await setSwitch('sys.externalauth.corp.linkByAccount', 'false');
      }
    });

    it('answers 40004 to an external login while the second factor is locked, as the password login does', async () => {
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      try {
        const userId = await addUser(t, { account: 'lou' });
        await bindTotp(t, clock, 'lou');
        const repo = t.server.database.repos.userExternal;
        await repo.bind({
          userId,
          provider: 'corp',
          subject: 'u-lou',
          displayName: null,
          createTime: new Date(),
        });
        idp.accounts.set('u-lou', { name: 'Lou' });
        // Wrong TOTP codes after the password until the second factor locks (MaxFailCount).
        let code = 0;
        for (let i = 0; i < 10 && code !== 40004; i++) {
          const login = await post(t, '/api/v1/auth/login', { account: 'lou', password: TEST_USER_PASSWORD });
          if (login.body.code === 40004) code = 40004;
          else {
            const challengeId = String(login.body.args?.challengeId ?? '');
            code = (await post(t, '/api/v1/auth/login/totp', { challengeId, code: '000000' })).body.code;
          }
        }
        expect(code).toBe(40004);
        expect(
          (await post(t, '/api/v1/auth/login', { account: 'lou', password: TEST_USER_PASSWORD })).body.code,
        ).toBe(40004);
        // The provider's word stands in for the password only: no new challenge for a locked second factor.
        const { result } = await externalLogin('u-lou');
        expect(result.searchParams.get('error')).toBe('40004');
        expect(result.searchParams.get('totpChallenge')).toBeNull();
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
      }
    });

    it('refuses an ID token the provider issued to another application, even with this flow nonce (40031)', async () => {
      idp.next.id = 'u-new';
      const browser = new Browser(t);
      const start = new URL((await browser.get(authorizeUrl())).headers.get('location') ?? '');
      // The same person signs in to the other application with this flow's nonce; its ID token is taken.
      const other = new URL(start.href);
      other.search = new URLSearchParams({
        client_id: 'other',
        response_type: 'code',
        scope: 'openid',
        redirect_uri: 'http://other.test/cb',
        nonce: start.searchParams.get('nonce') ?? '',
        state: 'other-state',
      }).toString();
      let url = other;
      const otherBrowser = new Browser(t);
      while (url.origin !== 'http://other.test') {
        const res = await otherBrowser.get(url);
        url = new URL(res.headers.get('location') ?? '', url);
      }
      const token = await fetch(new URL('/token', idp.issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: url.searchParams.get('code') ?? '',
          redirect_uri: 'http://other.test/cb',
          client_id: 'other',
          client_secret: 'other-test-client-secret-0123456789',
        }),
      });
      const idToken = ((await token.json()) as { id_token: string }).id_token;
      const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString());
      expect(payload).toMatchObject({
        aud: 'other',
        nonce: start.searchParams.get('nonce'),
        iss: idp.issuer,
      });
      idp.tamper.idToken = idToken;
      try {
        const result = await browser.follow(start);
        expect(result.searchParams.get('error')).toBe('40031');
        // Refused by the audience check (the nonce, issuer and signature were the provider's own).
        const refusals = t.logs.filter((line) => line.includes('refused by the OpenID checks'));
        expect(refusals.at(-1)).toContain('claim=aud');
      } finally {
        idp.tamper.idToken = null;
      }
    });

    it('takes a state once under simultaneous callbacks; malformed callbacks and offered return URLs redirect home', async () => {
      idp.next.id = 'u-new';
      const browser = new Browser(t);
      const callback = await browser.follow(authorizeUrl(), true);
      const both = await Promise.all([browser.get(callback), browser.get(callback)]);
      const outcomes = both.map((res) => new URL(res.headers.get('location') ?? '', SVC).searchParams);
      expect(outcomes.map((q) => (q.has('ticket') ? 'ticket' : q.get('error'))).sort()).toEqual([
        '40030',
        'ticket',
      ]);

      const callbackPath = `${SVC}/api/v1/auth/external/corp/callback`;
      const queries = [
        `state=${'s'.repeat(20_000)}&code=x`,
        `code=${'c'.repeat(100_000)}&state=abc`,
        'state=%zz&code=%E0%A4%A',
        'state=a&state=b&code=c',
        'state=%00&code=%00',
        `error=${'e'.repeat(50_000)}`,
      ];
      for (const query of queries) {
        const res = await new Browser(t).get(new URL(`${callbackPath}?${query}`));
        const location = res.headers.get('location') ?? '';
        expect({ query: query.slice(0, 20), status: res.status, location }).toEqual({
          query: query.slice(0, 20),
          status: 302,
          location: `${RESULT_PATH}?error=40030`,
        });
      }
      // A good state with the rest of the answer mangled: refused by the checks, never a crash.
      const mangles: ((u: URL) => void)[] = [
        (u) => u.searchParams.set('code', 'c'.repeat(100_000)),
        (u) => u.searchParams.append('code', 'second'),
        (u) => u.searchParams.append('state', 'second'),
        (u) => u.searchParams.delete('iss'),
        (u) => u.searchParams.set('code', '\u0000'),
      ];
      for (const [i, mangle] of mangles.entries()) {
        const tab = new Browser(t);
        const url = await tab.follow(authorizeUrl(), true);
        mangle(url);
        const res = await tab.get(url);
        expect({ i, status: res.status, location: res.headers.get('location') }).toEqual({
          i,
          status: 302,
          location: `${RESULT_PATH}?error=40031`,
        });
      }
      // Return addresses offered by the caller are not taken: the provider gets the configured callback, and
      // every outcome lands on the configured result path.
      const offered = new URL(authorizeUrl());
      offered.searchParams.set('redirect_uri', 'http://evil.test/cb');
      offered.searchParams.set('returnUrl', 'http://evil.test/');
      const tab = new Browser(t);
      const atProvider = new URL((await tab.get(offered)).headers.get('location') ?? '');
      expect(atProvider.searchParams.get('redirect_uri')).toBe(callbackPath);
      expect((await tab.follow(atProvider)).origin).toBe(SVC);
    });
  });
}
