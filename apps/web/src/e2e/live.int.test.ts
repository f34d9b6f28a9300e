import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, SHOTS, seriousViolations, signIn } from './browser.js';
import { ADMIN_PASSWORD, buildConsole, consoleDefaults, type Host, startHost } from './host.js';

/**
 * otplib, the library the service itself verifies codes with, taken from @svc/security's dependencies: the
 * console shell does not depend on it and a test does not justify a new dependency.
 */
const otplib = createRequire(
  fileURLToPath(new URL('../../../../packages/security/package.json', import.meta.url)),
)('otplib') as { generate: (options: { secret: string; epoch?: number }) => Promise<string> };

const USER = 'live-user';
const USER_PASSWORD = 'Live-User-Pass-1';

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

/** The user under test, with a known password already changed (no forced change on the first console visit). */
async function createUser(url: string): Promise<void> {
  const admin = await call(url, 'POST', '/api/v1/auth/login', undefined, {
    account: 'superAdmin',
    password: ADMIN_PASSWORD,
  });
  const token = admin.accessToken as string;
  await call(url, 'POST', '/api/v1/auth/reauth', token, { method: 'password', password: ADMIN_PASSWORD });
  await call(url, 'POST', '/api/v1/sys/user', token, {
    account: USER,
    realName: 'Live User',
    password: 'Live-Initial-Pass-0',
  });
  const user = await call(url, 'POST', '/api/v1/auth/login', undefined, {
    account: USER,
    password: 'Live-Initial-Pass-0',
  });
  await call(url, 'PUT', '/api/v1/personal/password', user.accessToken as string, {
    oldPassword: 'Live-Initial-Pass-0',
    newPassword: USER_PASSWORD,
  });
  // Only the browser's sessions are left for the sessions page to show.
  await call(url, 'POST', '/api/v1/auth/logout', user.accessToken as string);
}

describe('live area in Chromium: realtime, notices, TOTP, dashboard', () => {
  let host: Host;
  let browser: Browser;
  let admin: Page;
  let user: Page;

  const newPage = async () => {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await consoleDefaults(page);
    return page;
  };
  /** Signed in, on a page of the layout, with the hub's socket open. */
  const signedInLive = async (page: Page, account: string, password: string) => {
    await signIn(page, host.url, account, password);
    await page.locator('[data-testid=side-menu]').waitFor();
    await page.locator('.svc-header[data-realtime=open]').waitFor();
  };
  const bellCount = (page: Page) => page.locator('[data-testid=notice-bell]').getAttribute('data-unread');

  beforeAll(async () => {
    host = await startHost(buildConsole(), { Service__Realtime__Enabled: 'true' });
    await createUser(host.url);
    browser = await launchChromium();
    admin = await newPage();
    await signedInLive(admin, 'superAdmin', ADMIN_PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('(1) a forced logout takes the signed-in user to the login page by itself', async () => {
    user = await newPage();
    await signedInLive(user, USER, USER_PASSWORD);
    // A user with no list permission sees the greeting and no dashboard card.
    await expect.poll(() => user.locator('main h2').textContent()).toBe('Welcome, Live User');
    expect(await user.locator('[data-testid=dashboard-cards]').count()).toBe(0);
    // Requests of the signed-in page (the login page, once there, loads its sign-in options).
    const requests: string[] = [];
    user.on('request', (r) => {
      if (r.url().includes('/api/') && !r.frame().url().includes('/login')) requests.push(r.url());
    });

    await admin.locator('[data-testid=side-menu]').getByText('Online sessions', { exact: true }).click();
    await admin.waitForURL(/\/system\/session$/);
    const row = admin.locator('main tr', { hasText: USER });
    await row.locator('button', { hasText: 'Force logout' }).click();
    // Forced logout is high-risk: the re-authentication dialog opens, then the refused request is replayed.
    const password = admin.locator('#svc-reauth-password');
    await password.waitFor();
    await password.fill(ADMIN_PASSWORD);
    await admin.locator('button[type=submit]', { hasText: 'OK' }).click();
    await password.waitFor({ state: 'detached' });

    await user.waitForURL(/\/login(\?|$)/);
    await user.locator('.n-message', { hasText: 'Your session was ended: sign in again.' }).waitFor();
    await user.locator('#svc-account').waitFor();
    // It was the hub's message: the page asked the service nothing before leaving.
    expect(requests).toEqual([]);
    await expect.poll(() => admin.locator('main tr', { hasText: USER }).count()).toBe(0);
  }, 90_000);

  it('(2) a notice published to the user shows on the bell at once; reading it clears the badge', async () => {
    await signedInLive(user, USER, USER_PASSWORD);
    await expect.poll(() => bellCount(user)).toBe('0');

    await admin.locator('[data-testid=side-menu]').getByText('Notices', { exact: true }).click();
    await admin.waitForURL(/\/system\/notice$/);
    await admin.locator('[data-testid=notice-add]').click();
    await admin.locator('#svc-n-title').fill('Maintenance on Friday');
    await admin.locator('#svc-n-content').fill('The console is read-only from 18:00 to 19:00.');
    await admin.locator('[data-testid=notice-receiver-2]').click();
    await admin.locator('[data-testid=notice-receivers]').click();
    await admin.locator('.n-base-select-option', { hasText: `Live User (${USER})` }).click();
    await admin.keyboard.press('Escape');
    await admin.locator('[data-testid=notice-action-add]').click();
    await admin.getByLabel('Label of action 1').fill('Open my page');
    await admin.getByLabel('Path of action 1 (starts with /)').fill('/personal');
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'notice-publish.png'), fullPage: true });
    await admin.locator('[data-testid=notice-save]').click();
    await admin.locator('.n-message', { hasText: 'The notice was published.' }).waitFor();
    await admin.locator('[data-testid=notice-form]').waitFor({ state: 'detached' });
    const noticeRow = admin.locator('main tr', { hasText: 'Maintenance on Friday' });
    await noticeRow.waitFor();
    expect(await noticeRow.textContent()).toContain('Users');

    // No reload on the user's side: the hub's notice-changed refetches the count.
    await expect.poll(() => bellCount(user)).toBe('1');
    const bell = user.locator('[data-testid=notice-bell]');
    expect(await bell.getAttribute('aria-label')).toBe('Notices: 1 unread');
    await bell.click();
    const item = user.locator('[data-testid^=notice-item-]', { hasText: 'Maintenance on Friday' });
    await item.waitFor();
    expect(await item.getAttribute('data-read')).toBe('false');
    expect(await seriousViolations(user)).toEqual([]);
    await user.screenshot({ path: join(SHOTS, 'notice-bell.png'), fullPage: true });
    await item.locator('[data-testid^=notice-read-]').click();
    await expect.poll(() => bellCount(user)).toBe('0');
    expect(await item.getAttribute('data-read')).toBe('true');
    // Its action opens the console path it carries.
    await item.locator('button', { hasText: 'Open my page' }).click();
    await user.waitForURL(/\/personal$/);

    // An announcement to everyone reaches every open console, the admin's too; "mark all read" clears it.
    await admin.locator('[data-testid=notice-add]').click();
    await admin.locator('#svc-n-title').fill('New console version');
    await admin.locator('[data-testid=notice-type]').getByText('Announcement', { exact: true }).click();
    await admin.locator('[data-testid=notice-save]').click();
    await admin.locator('[data-testid=notice-form]').waitFor({ state: 'detached' });
    const everyoneRow = admin.locator('main tr', { hasText: 'New console version' });
    await everyoneRow.waitFor();
    expect(await everyoneRow.textContent()).toContain('Everyone');
    await expect.poll(() => bellCount(user)).toBe('1');
    await expect.poll(() => bellCount(admin)).toBe('1');
    await user.locator('[data-testid=notice-bell]').click();
    await user.locator('[data-testid^=notice-item-]', { hasText: 'New console version' }).waitFor();
    await user.locator('[data-testid=notice-read-all]').click();
    await expect.poll(() => bellCount(user)).toBe('0');
    expect(await bellCount(admin)).toBe('1');

    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'notices.png'), fullPage: true });
    await noticeRow.locator('[data-testid^=notice-delete-]').click();
    await admin.locator('.n-popconfirm button', { hasText: 'OK' }).click();
    await noticeRow.waitFor({ state: 'detached' });
    await expect.poll(() => bellCount(user)).toBe('0');
  }, 90_000);

  it('(3) TOTP: bound in the personal centre, the next step signs in, the same code twice is refused', async () => {
    await user.goto(`${host.url}/personal`);
    await user.locator('#svc-bind-password').fill(USER_PASSWORD);
    await user.locator('button[type=submit]', { hasText: 'Bind an authenticator' }).click();
    const seed = ((await user.locator('[data-testid=totp-seed]').textContent()) ?? '').trim();
    expect(seed).toMatch(/^[A-Z2-7]{16,}$/);
    await user.locator('#svc-bind-code').fill(await otplib.generate({ secret: seed }));
    await user.locator('button[type=submit]', { hasText: 'Verify' }).click();
    await user.locator('[data-testid=recovery-codes]').waitFor();
    await user.screenshot({ path: join(SHOTS, 'personal-totp.png'), fullPage: true });

    const logOut = async () => {
      await user.locator('[data-testid=user-menu]').click();
      await user.locator('.n-dropdown-option', { hasText: 'Log out' }).click();
      await user.waitForURL(/\/login(\?|$)/);
    };
    await logOut();
    // The code of the next time step: inside the service's drift window, and newer than the step used to bind.
    const next = await otplib.generate({ secret: seed, epoch: Math.floor(Date.now() / 1000) + 30 });
    await signIn(user, host.url, USER, USER_PASSWORD);
    await user.locator('#svc-code').fill(next);
    await user.locator('[data-testid=code-form] button[type=submit]').click();
    await user.locator('[data-testid=side-menu]').waitFor();
    // Bound now: the personal centre says so instead of offering a binding the service would refuse.
    await user.locator('[data-testid=user-menu]').click();
    await user.locator('.n-dropdown-option', { hasText: 'Personal centre' }).click();
    await user.locator('[data-testid=totp-bound]').waitFor();
    expect(await user.locator('#svc-bind-password').count()).toBe(0);
    expect(await seriousViolations(user)).toEqual([]);
    await user.screenshot({ path: join(SHOTS, 'personal-bound.png'), fullPage: true });
    await logOut();

    await signIn(user, host.url, USER, USER_PASSWORD);
    await user.locator('#svc-code').fill(next);
    await user.locator('[data-testid=code-form] button[type=submit]').click();
    await expect
      .poll(() => user.locator('[data-testid=code-form] [role=alert]').textContent())
      .toBe('The authenticator code is wrong or already used.');
    await user.screenshot({ path: join(SHOTS, 'totp-replay.png'), fullPage: true });
    expect(user.url()).toMatch(/\/login/);
  }, 90_000);

  it('(4) the dashboard and the personal centre: cards, default module, no serious accessibility violation', async () => {
    await admin.locator('[data-testid=side-menu]').getByText('Home', { exact: true }).click();
    await admin.waitForURL(`${host.url}/`);
    const users = admin.locator('[data-testid=dashboard-users]');
    await users.waitFor();
    // superAdmin and live-user; the admin's own session is online.
    await expect.poll(() => users.textContent()).toMatch(/Users\s*2$/);
    await expect
      .poll(async () =>
        Number(
          /\d+$/.exec(
            (await admin.locator('[data-testid=dashboard-onlineSessions]').textContent()) ?? '',
          )?.[0],
        ),
      )
      .toBeGreaterThanOrEqual(1);
    await admin.locator('[data-testid=dashboard-trend] svg[role=img]').waitFor();
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'dashboard.png'), fullPage: true });

    await admin.locator('[data-testid=user-menu]').click();
    await admin.locator('.n-dropdown-option', { hasText: 'Personal centre' }).click();
    await admin.waitForURL(/\/personal$/);
    const business = admin.locator('[data-testid=module-business]');
    await business.click();
    await admin.locator('[data-testid=default-module-save]').click();
    await admin.locator('.n-message', { hasText: 'Default module saved.' }).waitFor();
    await admin.reload();
    await admin.locator('[data-testid=module-business].n-radio--checked').waitFor();
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'personal-modules.png'), fullPage: true });
  }, 90_000);
});
