/**
 * One language at a time, end to end in Debian's Chromium: a browser asking for Chinese gets the Chinese console
 * without choosing it (one asking for English the English one), and every page of the seeded menus then shows no
 * word of the other language: in zh-CN no seeded English word (a menu, button, dictionary item, role, module or
 * organisation as seeded) anywhere and no English word in the console's own labels (headers, buttons, form
 * labels, menus, tabs, tags); after the user picks English, no Chinese character anywhere. The menu tree and a
 * role's menu grants are opened down to the buttons.
 */
import { builtInLabels } from '@svc/web/module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.js';
import { ADMIN_PASSWORD, buildConsole, consoleDefaults, type Host, startHost } from './host.js';

const UNTIL = { timeout: 20_000, interval: 100 };
/** The seeded English words and their Chinese (keys: every word the service seeds). */
const ZH = builtInLabels['zh-CN'] ?? {};

/**
 * Latin words a Chinese label may hold: names of standards and products, written so in Chinese consoles too,
 * and the super admin's account name (data, shown on the header's user button).
 */
const ALLOWED_LATIN = new Set([
  'API',
  'CPU',
  'Cron',
  'Excel',
  'ID',
  'IP',
  'JSON',
  'MFA',
  'Node',
  'OIDC',
  'SMS',
  'TOTP',
  'URL',
  'WebAuthn',
  'superAdmin',
]);

interface Leaf {
  path: string;
  title: string;
}

/** The super admin's menu pages (type `menu`, visible), depth first, from the service. */
async function menuPages(host: Host): Promise<Leaf[]> {
  const post = await fetch(`${host.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'superAdmin', password: ADMIN_PASSWORD }),
  });
  const token = ((await post.json()) as { data: { accessToken: string } }).data.accessToken;
  const menu = await fetch(`${host.url}/api/v1/personal/menu`, {
    headers: { authorization: `Bearer ${token}` },
  });
  interface Node {
    type: string;
    path: string | null;
    title: string;
    hidden: boolean;
    children?: Node[];
  }
  const walk = (nodes: Node[]): Leaf[] =>
    nodes.flatMap((n) => [
      ...(n.type === 'menu' && n.path && !n.hidden ? [{ path: n.path, title: n.title }] : []),
      ...walk(n.children ?? []),
    ]);
  return walk(((await menu.json()) as { data: Node[] }).data);
}

/** Until the page's own requests are answered and no table or spinner is loading. */
async function settled(page: Page, inFlight: () => number): Promise<void> {
  await expect.poll(inFlight, UNTIL).toBe(0);
  await page.waitForFunction(
    () => !document.querySelector('.n-data-table--loading, .n-spin-container .n-spin-body'),
    undefined,
    UNTIL,
  );
}

/**
 * What on the page is of the other language, one line each (the element's tag and text). Every visible text
 * node is read; a text is foreign in zh-CN when it is a seeded English word, or when it holds an English word
 * inside one of the console's own labels; in en-US when it holds a Chinese character. Input placeholders count.
 */
async function foreign(page: Page, language: 'zh-CN' | 'en-US'): Promise<string[]> {
  return page.evaluate(
    ({ language, seeded, allowed }) => {
      const seededWords = new Set(seeded);
      const allowedWords = new Set(allowed);
      const LABELS =
        'th, button, label, h1, h2, h3, h4, nav, header, [role=tab], [role=menuitem], .n-menu, .n-tabs-tab, ' +
        '.n-form-item-label, .n-tag, .n-radio-button, .n-breadcrumb, .n-empty, .n-card-header, .n-tree-node-content';
      const problems: string[] = [];
      const check = (text: string, element: Element) => {
        const trimmed = text.trim();
        if (!trimmed) return;
        const where = `<${element.tagName.toLowerCase()}> "${trimmed.slice(0, 80)}"`;
        if (language === 'en-US') {
          if (/\p{Script=Han}/u.test(trimmed)) problems.push(where);
          return;
        }
        if (seededWords.has(trimmed)) problems.push(where);
        else if (element.closest(LABELS)) {
          const words = trimmed.match(/[A-Za-z]{2,}/g) ?? [];
          if (words.some((w) => !allowedWords.has(w))) problems.push(where);
        }
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('script, style, [aria-hidden=true]')) continue;
        // Text marked as another language is so on purpose (the login page names each language in its own).
        const marked = parent.closest('[lang]')?.getAttribute('lang');
        if (marked && marked !== document.documentElement.lang) continue;
        if (!parent.checkVisibility()) continue;
        check(node.textContent ?? '', parent);
      }
      for (const input of document.querySelectorAll<HTMLInputElement>(
        'input[placeholder], textarea[placeholder]',
      ))
        if (input.checkVisibility()) check(input.placeholder, input);
      return [...new Set(problems)];
    },
    { language, seeded: Object.keys(ZH), allowed: [...ALLOWED_LATIN] },
  );
}

/** A side-menu entry's text: the seeded title in `language` (a title without a translation as stored). */
const label = (language: 'zh-CN' | 'en-US', seeded: string) => {
  const text = language === 'zh-CN' ? (ZH[seeded] ?? seeded) : seeded;
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
};

describe('one language at a time', () => {
  let host: Host;
  let browser: Browser;
  let page: Page;
  let leaves: Leaf[];
  let inFlight = 0;

  beforeAll(async () => {
    host = await startHost(buildConsole());
    browser = await launchChromium();
    leaves = await menuPages(host);
    // A Chinese browser, no language chosen yet.
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    await consoleDefaults(page, { chooseLanguage: false });
    page.on('request', (r) => {
      if (r.resourceType() === 'fetch' || r.resourceType() === 'xhr') inFlight += 1;
    });
    const done = (r: { resourceType(): string }) => {
      if (r.resourceType() === 'fetch' || r.resourceType() === 'xhr') inFlight -= 1;
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  }, 120_000);

  it('follows the browser when the user has chosen no language', async () => {
    await page.goto(`${host.url}/login`);
    await page.locator('#svc-account').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await foreign(page, 'zh-CN')).toEqual([]);
    const english = await (await browser.newContext({ locale: 'en-GB' })).newPage();
    await english.goto(`${host.url}/login`);
    await english.locator('#svc-account').waitFor();
    expect(await english.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect(await foreign(english, 'en-US')).toEqual([]);
    await english.context().close();
  });

  /** Every seeded page from the side menu, found by its label in `language`; the problems of each page. */
  async function walk(language: 'zh-CN' | 'en-US'): Promise<string[]> {
    const problems: string[] = [];
    const add = async (where: string) =>
      problems.push(...(await foreign(page, language)).map((p) => `${language} ${where}: ${p}`));
    expect(leaves.length).toBeGreaterThan(15);
    await page.locator('[data-testid=side-menu] .n-menu-item-content').first().click();
    await page.waitForURL((u) => u.pathname === '/', UNTIL);
    await settled(page, () => inFlight);
    await add('/');
    for (const leaf of leaves) {
      await page
        .locator('[data-testid=side-menu] .n-menu-item-content')
        .filter({ hasText: label(language, leaf.title) })
        .click();
      await page.waitForURL((u) => u.pathname === leaf.path, UNTIL);
      await settled(page, () => inFlight);
      await add(leaf.path);
    }
    // The menu tree opened down to its buttons ('List', 'Add'… as seeded).
    await page
      .locator('[data-testid=side-menu] .n-menu-item-content')
      .filter({ hasText: label(language, 'Menus') })
      .click();
    await settled(page, () => inFlight);
    for (
      let open = page.locator('.n-data-table-expand-trigger:not(.n-data-table-expand-trigger--expanded)');
      (await open.count()) > 0;
    )
      await open.first().click();
    await add('/system/menu (expanded)');
    // A role's menu grants: the same tree in a dialog.
    await page
      .locator('[data-testid=side-menu] .n-menu-item-content')
      .filter({ hasText: label(language, 'Roles') })
      .click();
    await settled(page, () => inFlight);
    await page.locator('[data-testid^=role-menus-]').first().click();
    await settled(page, () => inFlight);
    // The tree opens expanded (default-expand-all): its buttons are on screen.
    await page.locator('.n-modal .n-tree').waitFor();
    await add('/system/role (menu grants)');
    await page.locator('.n-modal .n-base-close').first().click();
    await page.locator('.n-modal').waitFor({ state: 'detached' });
    return problems;
  }

  it('shows every seeded page in Chinese with no English word, then in English with no Chinese', async () => {
    await page.locator('#svc-account').fill('superAdmin');
    await page.locator('#svc-password').fill(ADMIN_PASSWORD);
    await page.locator('[data-testid=login-form] button[type=submit]').click();
    await page.locator('[data-testid=side-menu]').waitFor();
    const chinese = await walk('zh-CN');

    // The user picks English in the header: kept over a reload, and the pages walked again.
    await page.locator('.n-select', { hasText: '简体中文' }).click();
    await page.locator('.n-base-select-option', { hasText: /^English$/ }).click();
    await page.reload();
    await page.locator('[data-testid=side-menu]').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    const english = await walk('en-US');
    expect([...chinese, ...english]).toEqual([]);
  }, 240_000);
});
