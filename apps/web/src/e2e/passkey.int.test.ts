import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, SHOTS, seriousViolations, signIn } from './browser.js';
import { ADMIN_PASSWORD, buildConsole, consoleDefaults, type Host, startHost } from './host.js';

/**
 * Passkeys in Debian's Chromium with the DevTools virtual authenticator (a platform authenticator with resident
 * keys and user verification, one per page): a user adds a passkey on the personal page (re-authenticating with
 * the password first), renames it, signs out and is signed in by the account field's autofill; the
 * administrator, in a browser without the autofill, adds one too, signs in with the button,
 * removes the user's passkey on the user page after confirming with the passkey in the re-authentication
 * dialog, and the user's session ends. axe-core finds nothing serious on the login page, the personal page and
 * the dialogs. One host for the file.
 */

const USER = 'pk-user';
const USER_PASSWORD = 'Passkey-User-Pass-1';

/** One JSON call of the service's API (test set-up only; what is under test goes through the console). */
async function call(url: string, method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { code: number; msgKey: string; data: unknown };
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data as Record<string, unknown>;
}

/** The user under test, with its own password (no forced change on the first visit). */
async function createUser(url: string): Promise<void> {
  const admin = await call(url, 'POST', '/api/v1/auth/login', undefined, {
    account: 'superAdmin',
    password: ADMIN_PASSWORD,
  });
  const token = admin.accessToken as string;
  await call(url, 'POST', '/api/v1/auth/reauth', token, { method: 'password', password: ADMIN_PASSWORD });
  await call(url, 'POST', '/api/v1/sys/user', token, {
    account: USER,
    realName: 'Passkey User',
    password: 'Passkey-Initial-Pass-0',
  });
  const user = await call(url, 'POST', '/api/v1/auth/login', undefined, {
    account: USER,
    password: 'Passkey-Initial-Pass-0',
  });
  await call(url, 'PUT', '/api/v1/personal/password', user.accessToken as string, {
    oldPassword: 'Passkey-Initial-Pass-0',
    newPassword: USER_PASSWORD,
  });
  await call(url, 'POST', '/api/v1/auth/logout', user.accessToken as string);
  await call(url, 'POST', '/api/v1/auth/logout', token);
}

interface Authenticator {
  cdp: CDPSession;
  id: string;
  credentials: () => Promise<Array<{ userHandle?: string; rpId?: string; isResidentCredential: boolean }>>;
}

/** A virtual platform authenticator for the page (kept while its DevTools session stays attached). */
async function addAuthenticator(page: Page): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    cdp,
    id: authenticatorId,
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as Array<{
        userHandle?: string;
        rpId?: string;
        isResidentCredential: boolean;
      }>,
  };
}

describe('passkeys in Chromium: personal page, login, re-authentication, user page', () => {
  let host: Host;
  /** WebAuthn needs a domain for its RP id, not an IP address: the host's loopback address under its name. */
  let url: string;
  let browser: Browser;

  const newPage = async () => {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await consoleDefaults(page);
    return page;
  };
  const logOut = async (page: Page) => {
    await page.locator('[data-testid=user-menu]').click();
    await page.locator('.n-dropdown-option', { hasText: 'Log out' }).click();
    await page.waitForURL(/\/login(\?|$)/);
  };
  const openPersonal = async (page: Page) => {
    await page.locator('[data-testid=user-menu]').click();
    await page.locator('.n-dropdown-option', { hasText: 'Personal centre' }).click();
    await page.locator('[data-testid=passkeys]').waitFor();
  };
  /** Adds a passkey named `name` on the personal page, re-authenticating with `password` when asked. */
  const addPasskey = async (page: Page, key: Authenticator, password: string, name: string) => {
    await page.locator('[data-testid=passkey-add]').click();
    const reauth = page.locator('#svc-reauth-password');
    await reauth.waitFor();
    // No passkey yet: the dialog offers only the password (and the code of a bound authenticator).
    expect(await page.locator('[data-testid=reauth-passkey]').count()).toBe(0);
    expect(await seriousViolations(page, key.cdp)).toEqual([]);
    await reauth.fill(password);
    await page.locator('[data-testid=reauth-form] button[type=submit]').click();
    await reauth.waitFor({ state: 'detached' });
    const field = page.locator('#svc-passkey-name');
    await field.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('svc-passkey-name');
    await field.fill(name);
    await page.locator('[data-testid=passkey-create]').click();
    await page.locator('[data-testid=passkey-row]', { hasText: name }).waitFor();
  };

  beforeAll(async () => {
    host = await startHost(buildConsole(), { Service__Security__Passkey__Enabled: 'true' });
    url = host.url.replace('127.0.0.1', 'localhost');
    await createUser(host.url);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  let user: Page;
  let userKey: Authenticator;

  it('(1) a user adds a passkey on the personal page, signs out and signs in with it', async () => {
    user = await newPage();
    userKey = await addAuthenticator(user);
    await signIn(user, url, USER, USER_PASSWORD);
    await user.locator('[data-testid=side-menu]').waitFor();
    await openPersonal(user);
    await user.locator('[data-testid=passkey-empty]').waitFor();
    await addPasskey(user, userKey, USER_PASSWORD, 'Work laptop');
    const row = user.locator('[data-testid=passkey-row]');
    expect(await row.count()).toBe(1);
    await expect.poll(() => row.textContent()).toMatch(/^Work laptop.*Never/);
    // A discoverable credential of this site on the authenticator.
    const stored = await userKey.credentials();
    expect(stored.map((c) => [c.rpId, c.isResidentCredential])).toEqual([['localhost', true]]);
    expect(await seriousViolations(user, userKey.cdp)).toEqual([]);
    await user.screenshot({ path: join(SHOTS, 'passkey-personal.png'), fullPage: true });

    // Renamed in place (no re-authentication: a label only).
    await user.locator('[data-testid^=passkey-rename-]').click();
    await user.locator('#svc-passkey-rename').fill('My laptop');
    expect(await seriousViolations(user, userKey.cdp)).toEqual([]);
    await user.locator('[data-testid=passkey-rename-save]').click();
    await user.locator('[data-testid=passkey-row]', { hasText: 'My laptop' }).waitFor();

    // Signed out, the login page offers the button and waits in the account field's autofill; the virtual
    // authenticator answers that request itself (user presence simulated): the sign-in needs no click.
    const login = user.waitForResponse((r) => r.url().endsWith('/api/v1/auth/passkey/login'));
    await user.locator('[data-testid=user-menu]').click();
    await user.locator('.n-dropdown-option', { hasText: 'Log out' }).click();
    const output = ((await (await login).json()) as { data: Record<string, unknown> }).data;
    // Handled as a password login's: a cookie session, the layout, the user's name in the header.
    expect(output).toMatchObject({ account: USER, refreshToken: '', sessionMode: 'cookie' });
    await user.locator('[data-testid=side-menu]').waitFor();
    await expect.poll(() => user.locator('[data-testid=user-menu]').textContent()).toBe('Passkey User');
    await openPersonal(user);
    await expect.poll(() => user.locator('[data-testid=passkey-row]').textContent()).not.toMatch(/Never/);
  }, 120_000);

  it('(2) the administrator signs in with a passkey, confirms with it and removes the user’s passkey', async () => {
    const admin = await newPage();
    // A browser without the autofill: the login page offers the button alone.
    await admin.addInitScript(() => {
      Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', {
        value: () => Promise.resolve(false),
      });
    });
    const adminKey = await addAuthenticator(admin);
    await signIn(admin, url, 'superAdmin', ADMIN_PASSWORD);
    await admin.locator('[data-testid=side-menu]').waitFor();
    await openPersonal(admin);
    await addPasskey(admin, adminKey, ADMIN_PASSWORD, 'Admin key');
    const optionCalls: string[] = [];
    admin.on('request', (r) => {
      if (r.url().endsWith('/api/v1/auth/passkey/options')) optionCalls.push(r.url());
    });
    const site = admin.waitForResponse((r) => r.url().endsWith('/api/v1/sys/config/site'));
    await logOut(admin);
    const button = admin.locator('[data-testid=passkey-login]');
    await button.waitFor();
    // The site info's flag offered the button: no login options were asked for to find out.
    expect(((await (await site).json()) as { data: { features: object } }).data.features).toEqual({
      passkey: true,
    });
    expect(optionCalls).toEqual([]);
    expect(await admin.locator('#svc-account').getAttribute('autocomplete')).toBe('username');
    expect(await seriousViolations(admin, adminKey.cdp)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'passkey-login.png'), fullPage: true });
    await button.click();
    await admin.locator('[data-testid=side-menu]').waitFor();
    expect(optionCalls).toHaveLength(1);

    // A new session: its re-authentication window is closed, so the removal asks, and offers the passkey.
    await admin.goto(`${url}/system/user`);
    await admin.locator(`[data-testid=passkeys-${USER}]`).click();
    const dialog = admin.locator('[data-testid=user-passkeys-dialog]');
    await dialog.locator('[data-testid=user-passkey-row]', { hasText: 'My laptop' }).waitFor();
    expect(await seriousViolations(admin, adminKey.cdp)).toEqual([]);
    await dialog.locator('[data-testid^=user-passkey-remove-]').click();
    await admin.locator('[data-testid=confirm-delete]').click();
    const withPasskey = admin.locator('[data-testid=reauth-passkey]');
    await withPasskey.waitFor();
    await expect.poll(() => admin.evaluate(() => document.activeElement?.id)).toBe('svc-reauth-passkey');
    expect(await seriousViolations(admin, adminKey.cdp)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'passkey-reauth.png'), fullPage: true });
    const reauth = admin.waitForResponse((r) => r.url().endsWith('/api/v1/auth/reauth'));
    await withPasskey.click();
    expect(((await (await reauth).json()) as { code: number }).code).toBe(0);
    await dialog.locator('[data-testid=user-passkey-empty]').waitFor();

    // The user's sessions ended with it: the next request of the user's page leads to the login page.
    await user.reload();
    await user.waitForURL(/\/login(\?|$)/);
  }, 120_000);
});
