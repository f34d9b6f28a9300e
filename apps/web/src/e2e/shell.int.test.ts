/**
 * The console's shell end to end (issue 47): one host, one browser, one context per screen size. At 390×844 the
 * home page and every page of the seeded menus are opened through the drawer, the page itself never scrolls
 * sideways and axe finds nothing serious in light mode; at 1440×900 the same pages are opened from the sidebar in
 * dark mode (switched in the header, kept over a reload) and pass axe again. A screenshot of every page at both
 * sizes is kept in apps/web/test-results/screenshots/ (gitignored, kept as artefacts). Then: the breadcrumb, the
 * Ctrl-K menu search by keyboard, tabs over a reload, icons in the collapsed sidebar, 403 and 404 inside the
 * layout, the initial bundle's budget, a dialog on a phone, and the shared table's settings over a reload and its
 * failed load with Retry.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, SHOTS, seriousViolations } from './browser.js';
import { ADMIN_PASSWORD, buildConsole, consoleDefaults, type Host, startHost } from './host.js';

const UNTIL = { timeout: 20_000, interval: 100 };
const SCREENSHOTS = join(SHOTS, 'screenshots');
/** The budget of the console's initial bundle (index.html's entry and the modules it preloads), gzip. */
const INITIAL_JS_BUDGET = 180 * 1024;

interface MenuNode {
  type: string;
  title: string;
  path: string | null;
  enabled: boolean;
  hidden: boolean;
  children?: MenuNode[];
}

/** The menu pages of the tree, depth first, as the sidebar lists them. */
function menuPages(
  nodes: readonly MenuNode[],
  trail: string[] = [],
): Array<{ title: string; path: string; trail: string[] }> {
  return nodes.flatMap((n) => {
    if (!n.enabled || n.hidden || n.type === 'button') return [];
    if (n.type === 'menu' && n.path) return [{ title: n.title, path: n.path, trail: [...trail, n.title] }];
    return menuPages(n.children ?? [], [...trail, n.title]);
  });
}

/** Signs the context's page in as the super administrator and waits for the layout. */
async function signInAdmin(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.locator('#svc-account').fill('superAdmin');
  await page.locator('#svc-password').fill(ADMIN_PASSWORD);
  await page.locator('[data-testid=login-form] button[type=submit]').click();
  await page.locator('[data-testid=nav-toggle]').waitFor();
  return page;
}

/** What shows once a page's second load is in (the recycle bin loads the counts, then the first type's rows). */
const READY: Record<string, string> = { '/system/recycle': '[data-testid=recycle-summary]' };

/** Waits until the page's content is in: the route's page rendered, no table loading, no dialog or toast. */
async function settled(page: Page): Promise<void> {
  await page.locator('main > *').first().waitFor();
  const ready = READY[new URL(page.url()).pathname];
  if (ready) await page.locator(ready).waitFor();
  await page.mouse.move(0, 0);
  for (const selector of ['.n-data-table--loading', '.n-message', '.n-modal']) {
    await page.locator(selector).first().waitFor({ state: 'detached', timeout: UNTIL.timeout });
  }
}

/** How far the page and its content area reach past their width (0 when nothing scrolls sideways). */
function overflow(page: Page): Promise<{ page: number; content: number; wide: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement as Element;
    const content = document.querySelector('.svc-content > .n-scrollbar > .n-scrollbar-container');
    if (!content) throw new Error('the layout has no content box');
    const limit = content.getBoundingClientRect().right + 1;
    // What sticks out, to name in the failure (a table scrolls inside its own box and is not counted).
    const wide = [...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > limit && !e.closest('.n-data-table-base-table'))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
    return {
      page: root.scrollWidth - root.clientWidth,
      content: content.scrollWidth - content.clientWidth,
      wide,
    };
  });
}

const shotName = (path: string, suffix: string) =>
  `${path.replace(/^\//, '').replace(/\//g, '-') || 'home'}-${suffix}.png`;

describe('console shell in Chromium', () => {
  let host: Host;
  let browser: Browser;
  let narrow: Page;
  let wide: Page;
  let pages: Array<{ title: string; path: string; trail: string[] }>;

  beforeAll(async () => {
    host = await startHost(buildConsole());
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    const login = (await (
      await fetch(`${host.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'superAdmin', password: ADMIN_PASSWORD }),
      })
    ).json()) as { data: { accessToken: string } };
    const tree = (await (
      await fetch(`${host.url}/api/v1/personal/menu`, {
        headers: { authorization: `Bearer ${login.data.accessToken}` },
      })
    ).json()) as { data: MenuNode[] };
    pages = [{ title: 'Home', path: '/', trail: ['Home'] }, ...menuPages(tree.data)];
    const phone = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
    const desk = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    await consoleDefaults(phone);
    await consoleDefaults(desk);
    narrow = await signInAdmin(phone, host.url);
    wide = await signInAdmin(desk, host.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  }, 120_000);

  it('at 390×844 opens every seeded page through the drawer, none scrolls sideways, each passes axe', async () => {
    expect(pages.length).toBeGreaterThan(15);
    // No sidebar on a phone: the menu is in the drawer behind the menu button.
    expect(await narrow.locator('.n-layout-sider').count()).toBe(0);
    const findings: string[] = [];
    for (const { title, path } of pages) {
      await narrow.locator('[data-testid=nav-toggle]').click();
      const drawer = narrow.locator('[data-testid=nav-drawer]');
      await drawer.waitFor();
      await drawer
        .locator('[data-testid=side-menu] .n-menu-item-content', { hasText: new RegExp(`^${title}$`) })
        .click();
      await narrow.waitForURL(`${host.url}${path}`);
      // The drawer closes after the navigation.
      await drawer.waitFor({ state: 'detached' });
      await settled(narrow);
      const out = await overflow(narrow);
      if (out.page > 0 || out.content > 0) findings.push(`${path}: ${JSON.stringify(out)}`);
      for (const v of await seriousViolations(narrow)) findings.push(`${path} (light): ${v}`);
      await narrow.screenshot({ path: join(SCREENSHOTS, shotName(path, '390x844')), fullPage: true });
    }
    expect(findings).toEqual([]);
  }, 120_000);

  it('follows the system’s scheme until switched in the header, keeps the switch over a reload', async () => {
    const scheme = () => wide.evaluate(() => document.documentElement.dataset.theme);
    await wide.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(scheme, UNTIL).toBe('dark');
    await wide.emulateMedia({ colorScheme: 'light' });
    await expect.poll(scheme, UNTIL).toBe('light');
    await wide.locator('[data-testid=theme-toggle]').click();
    await expect.poll(scheme, UNTIL).toBe('dark');
    // Chosen: the system's light no longer moves it, and a reload keeps it.
    await wide.emulateMedia({ colorScheme: 'light' });
    await wide.reload();
    await wide.locator('[data-testid=theme-toggle]').waitFor();
    await expect.poll(scheme, UNTIL).toBe('dark');
    expect(await wide.locator('[data-testid=theme-toggle]').getAttribute('aria-label')).toBe(
      'Switch to light mode',
    );
    // Naive UI's dark theme is on: the layout's background is dark.
    const background = await wide.evaluate(
      () => getComputedStyle(document.querySelector('.svc-main') as Element).backgroundColor,
    );
    const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b).toBeLessThan(150);
  });

  it('at 1440×900 in dark opens every seeded page from the sidebar, each passes axe', async () => {
    const findings: string[] = [];
    for (const { title, path } of pages) {
      await wide
        .locator('[data-testid=side-menu] .n-menu-item-content', { hasText: new RegExp(`^${title}$`) })
        .click();
      await wide.waitForURL(`${host.url}${path}`);
      await settled(wide);
      for (const v of await seriousViolations(wide)) findings.push(`${path} (dark): ${v}`);
      await wide.screenshot({ path: join(SCREENSHOTS, shotName(path, '1440x900-dark')), fullPage: true });
    }
    expect(findings).toEqual([]);
  }, 120_000);

  it('shows the breadcrumb, finds a page with Ctrl-K, and opens the same tabs after a reload', async () => {
    const tabTitles = () => wide.locator('.svc-tabs .n-tabs-tab').allTextContents();
    const before = await tabTitles();
    expect(before.length).toBe(pages.length);
    // Ctrl-K, a few letters, the arrow keys and Enter: the page opens.
    await wide.keyboard.press('Control+K');
    const input = wide.locator('[data-testid=menu-search-input]');
    await input.waitFor();
    await expect
      .poll(() => wide.evaluate(() => document.activeElement?.getAttribute('data-testid')), UNTIL)
      .toBe('menu-search-input');
    await input.fill('log');
    const hits = wide.locator('#svc-menu-hits [role=option]');
    await expect
      .poll(() => hits.allTextContents(), UNTIL)
      .toEqual(['Login logMonitor', 'Operation logMonitor', 'Exception logMonitor']);
    expect(await seriousViolations(wide)).toEqual([]);
    await wide.keyboard.press('ArrowDown');
    await wide.keyboard.press('ArrowDown');
    await wide.keyboard.press('ArrowUp');
    expect(await hits.nth(1).getAttribute('aria-selected')).toBe('true');
    await wide.keyboard.press('Enter');
    await wide.waitForURL(`${host.url}/monitor/log/op`);
    await input.waitFor({ state: 'detached' });
    expect(await wide.locator('[data-testid=breadcrumb] li').allTextContents()).toEqual([
      'Home',
      'Monitor',
      'Operation log',
    ]);
    // The header's button opens it too.
    await wide.locator('[data-testid=menu-search-open]').click();
    await input.fill('dictionar');
    await wide.keyboard.press('Enter');
    await wide.waitForURL(`${host.url}/system/dict`);
    expect(await wide.locator('[data-testid=breadcrumb] li').allTextContents()).toEqual([
      'Home',
      'System',
      'Dictionaries',
    ]);
    await wide.locator('[data-testid=breadcrumb] a', { hasText: 'Home' }).click();
    await wide.waitForURL(`${host.url}/`);
    // The tabs the admin opened come back after a reload, in order.
    await wide.reload();
    await wide.locator('[data-testid=side-menu]').waitFor();
    await expect.poll(tabTitles, UNTIL).toEqual(before);
  });

  it('shows menu icons in the collapsed sidebar, 403 and 404 inside the layout with a way back', async () => {
    await wide.locator('[data-testid=nav-toggle]').click();
    const items = wide.locator(
      '[data-testid=side-menu] > .n-menu-item, [data-testid=side-menu] > .n-submenu',
    );
    await expect.poll(() => wide.locator('.n-layout-sider--collapsed').count(), UNTIL).toBe(1);
    const count = await items.count();
    expect(count).toBeGreaterThan(2);
    // Every top-level entry draws its icon (no letter in its place).
    expect(
      await wide.locator('[data-testid=side-menu] .n-menu-item-content__icon svg').count(),
    ).toBeGreaterThanOrEqual(count);
    await wide.screenshot({ path: join(SCREENSHOTS, 'sidebar-collapsed-1440x900-dark.png') });
    await wide.locator('[data-testid=nav-toggle]').click();
    await expect.poll(() => wide.locator('.n-layout-sider--collapsed').count(), UNTIL).toBe(0);

    for (const [path, code] of [
      ['/403', 403],
      ['/no/such/page', 404],
    ] as const) {
      await wide.goto(`${host.url}/system/user`);
      await wide.locator('[data-testid=side-menu]').waitFor();
      await wide.goto(`${host.url}${path}`);
      const status = wide.locator(`[data-testid=status-${code}]`);
      await status.waitFor();
      // Inside the layout: the menu and the header are there.
      await wide.locator('[data-testid=side-menu]').waitFor();
      expect(await seriousViolations(wide)).toEqual([]);
      await wide.screenshot({ path: join(SCREENSHOTS, `status-${code}-1440x900-dark.png`) });
      await status.locator('[data-testid=status-back]').click();
      // Back is the browser's: the page before may come back from the back/forward cache, which fires no load.
      await wide.waitForURL(`${host.url}/system/user`, { waitUntil: 'commit' });
      await wide.locator('[data-testid=side-menu]').waitFor();
      await wide.goto(`${host.url}${path}`);
      await status.locator('[data-testid=status-home]').click();
      await wide.waitForURL(`${host.url}/`);
    }
  });

  it('keeps the initial bundle (the entry and what index.html preloads) at most 180 KB gzip', async () => {
    const html = await (await fetch(`${host.url}/`)).text();
    const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(files.length).toBeGreaterThan(1);
    const sizes = await Promise.all(
      files.map(
        async (file) => gzipSync(Buffer.from(await (await fetch(`${host.url}${file}`)).arrayBuffer())).length,
      ),
    );
    const total = sizes.reduce((a, b) => a + b, 0);
    const lines = files.map((file, i) => `  ${((sizes[i] ?? 0) / 1024).toFixed(1).padStart(7)} KB  ${file}`);
    console.log(`initial bundle (gzip):\n${lines.join('\n')}\n  ${(total / 1024).toFixed(1)} KB in total`);
    expect(total).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  });

  it('a dialog fits a phone screen', async () => {
    await narrow.goto(`${host.url}/system/position`);
    await narrow.locator('[data-testid=position-add]').click();
    const dialog = narrow.locator('.n-modal');
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 15 && box.x + box.width <= 390 - 15).toBe(true);
    await dialog.locator('button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('keeps a table’s column choice and density over a reload, and shows a failed load with Retry', async () => {
    await wide.goto(`${host.url}/system/position`);
    const table = wide.locator('[data-testid=position-table]');
    await table.locator('th', { hasText: 'Remark' }).waitFor();
    await wide.locator('[data-testid=table-settings]').click();
    await wide.locator('[data-testid=table-column-remark]').click();
    await wide.locator('[data-testid=table-density-compact]').click();
    await table.locator('th', { hasText: 'Remark' }).waitFor({ state: 'detached' });
    await wide.reload();
    await table.locator('th', { hasText: 'Code' }).waitFor();
    expect(await table.locator('th', { hasText: 'Remark' }).count()).toBe(0);
    expect(await table.getAttribute('data-density')).toBe('compact');
    // Put back for the other tests' screenshots.
    await wide.locator('[data-testid=table-settings]').click();
    await wide.locator('[data-testid=table-settings-reset]').click();
    await table.locator('th', { hasText: 'Remark' }).waitFor();

    // A list call that fails shows the failure and Retry, not an empty table; Retry loads it.
    let fail = true;
    await wide.route('**/api/v1/sys/position/page**', (route) =>
      fail
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ code: 50000, msgKey: 'error.internal', data: null }),
          })
        : route.continue(),
    );
    await wide.reload();
    const failed = table.locator('[data-testid=table-failed]');
    await failed.waitFor();
    expect(await table.locator('[data-testid=table-empty]').count()).toBe(0);
    fail = false;
    await failed.locator('[data-testid=table-retry]').click();
    await failed.waitFor({ state: 'detached' });
    await table.locator('[data-testid=table-empty], tbody tr').first().waitFor();
    await wide.unroute('**/api/v1/sys/position/page**');
  });
});
