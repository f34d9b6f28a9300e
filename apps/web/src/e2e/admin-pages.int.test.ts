import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, SHOTS, seriousViolations } from './browser.js';
import { ADMIN_PASSWORD, buildConsole, consoleDefaults, type Host, startHost } from './host.js';

describe('admin structure pages in Chromium', () => {
  let host: Host;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  /** Opens a page through the side menu (the System catalog is expanded by default). */
  async function openFromMenu(title: string, path: RegExp): Promise<void> {
    await page.locator('[data-testid=side-menu]').getByText(title, { exact: true }).click();
    await page.waitForURL(path);
  }

  /** The table row holding `text` (rows of a tree table are flat `tr`s, one per node). */
  const row = (table: string, text: string) =>
    page.locator(`[data-testid=${table}] tbody tr`, { hasText: text });

  /**
   * Confirms the open delete dialog and waits for it to close. The click waits for the dialog's entry
   * transition to end first: a click during it was once lost (the button stayed, the delete never ran).
   */
  async function confirmDelete(): Promise<void> {
    const confirm = page.locator('[data-testid=confirm-delete]');
    await confirm.waitFor();
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await confirm.click();
    await confirm.waitFor({ state: 'detached' });
  }

  /**
   * Waits until nothing is in motion (a closing dialog, a fading message, a table's loading veil): axe would
   * measure the contrast of half-transparent text otherwise.
   */
  async function settled(): Promise<void> {
    // The pointer off the page: a hovered button shows its hover colour, not the one axe should check.
    await page.mouse.move(0, 0);
    for (const selector of ['.n-modal', '.n-message', '.n-spin-body', '.n-base-select-menu:visible']) {
      await page.locator(selector).first().waitFor({ state: 'detached' });
    }
  }

  async function expectAccessible(shot: string): Promise<void> {
    await settled();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: true });
  }

  beforeAll(async () => {
    host = await startHost(buildConsole());
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
    await consoleDefaults(context);
  }, 120_000);

  // Each test signs in on a page of its own: a failure leaves nothing open for the next one. The tabs of one
  // context share the session cookie, so the last test's session is dropped first (else the login page would
  // pick it up and go on to the home page).
  beforeEach(async () => {
    await context.clearCookies();
    page = await context.newPage();
    // Every wait fails on its own, well before the test's time, so a failure names its locator.
    page.setDefaultTimeout(15_000);
    await page.goto(`${host.url}/login`);
    await page.locator('#svc-account').fill('superAdmin');
    await page.locator('#svc-password').fill(ADMIN_PASSWORD);
    await page.locator('[data-testid=login-form] button[type=submit]').click();
    await page.locator('[data-testid=side-menu]').waitFor();
  });

  // A failed test leaves a picture of the page it failed on.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) {
      await page.screenshot({
        path: join(SHOTS, `failed-${ctx.task.name.split(':')[0]}.png`),
        fullPage: true,
      });
    }
    await page?.close();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await host?.stop();
  }, 90_000);

  it('menus: adds a menu (after re-authentication) and a button with its code, deletes the button', async () => {
    await openFromMenu('Menus', /\/system\/menu$/);
    await row('menu-table', 'Positions').waitFor();
    // The seeded tree shows buttons with their permission codes.
    await expect
      .poll(() => page.locator('[data-testid=menu-table]').textContent())
      .toContain('POST:/api/v1/sys/org/{id}/copy');

    // A menu under the System catalog (id 1): the form starts as a "menu" under it.
    await page.locator('[data-testid=menu-add-1]').click();
    await page.locator('#svc-menu-title').fill('E2E Reports');
    await page.locator('#svc-menu-path').fill('/system/e2e-reports');
    await page.locator('#svc-menu-component').fill('system/e2e-reports/index');
    await page.locator('[data-testid=menu-save]').click();
    // Menu writes are high-sensitivity: 40024 opens the dialog; the password opens the window and the refused
    // request is replayed on its own.
    const reauth = page.locator('#svc-reauth-password');
    await reauth.waitFor();
    await reauth.fill(ADMIN_PASSWORD);
    await page.locator('button[type=submit]', { hasText: 'OK' }).click();
    await reauth.waitFor({ state: 'detached' });
    await page.locator('[data-testid=menu-form]').waitFor({ state: 'detached' });
    const reports = row('menu-table', 'E2E Reports');
    await reports.waitFor();
    expect(await reports.textContent()).toContain('system/e2e-reports/index');

    // A button under it: the type follows the parent (a menu's child is a button), the code comes from the
    // route list of the picker.
    await reports.locator('[data-testid^=menu-add-]').click();
    await page.locator('#svc-menu-title').fill('Export report');
    await page.locator('[data-testid=menu-permission]').click();
    await page.keyboard.type('sys/user/export');
    await page.locator('.n-base-select-option:visible', { hasText: 'GET:/api/v1/sys/user/export' }).click();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=menu-save]').click();
    await page.locator('[data-testid=menu-form]').waitFor({ state: 'detached' });
    const exportButton = row('menu-table', 'Export report');
    await exportButton.waitFor();
    expect(await exportButton.textContent()).toContain('Button');
    expect(await exportButton.textContent()).toContain('GET:/api/v1/sys/user/export');
    await expectAccessible('menus');

    await exportButton.locator('[data-testid^=menu-delete-]').click();
    await confirmDelete();
    await exportButton.waitFor({ state: 'detached' });
    await reports.waitFor();

    // The new menu is part of the signed-in user's sidebar once it is read again.
    await page.reload();
    await expect.poll(() => page.locator('[data-testid=side-menu]').textContent()).toContain('E2E Reports');
  }, 90_000);

  it('organisations: creates one under the root, copies it, deletes the copy', async () => {
    await openFromMenu('Organisations', /\/system\/org$/);
    await page.locator('[data-testid=org-add-root]').click();
    await page.locator('#svc-org-name').fill('E2E Branch');
    await page.locator('#svc-org-code').fill('e2e-branch');
    await page.locator('#svc-org-leader').fill('Ada');
    await page.locator('[data-testid=org-save]').click();
    await page.locator('[data-testid=org-copy-e2e-branch]').waitFor();
    expect(await row('org-table', 'e2e-branch').first().textContent()).toContain('Enabled');

    await page.locator('[data-testid=org-copy-e2e-branch]').click();
    const copyName = page.locator('#svc-org-copy-name');
    await expect.poll(() => copyName.inputValue()).toBe('E2E Branch (copy)');
    await copyName.fill('E2E Branch B');
    await page.locator('[data-testid=org-copy-save]').click();
    // The copy is a sibling with a suffixed code.
    await page.locator('[data-testid=org-delete-e2e-branch-copy]').waitFor();
    expect(await row('org-table', 'e2e-branch-copy').textContent()).toContain('E2E Branch B');
    await expectAccessible('orgs');

    await page.locator('[data-testid=org-delete-e2e-branch-copy]').click();
    await confirmDelete();
    await page.locator('[data-testid=org-delete-e2e-branch-copy]').waitFor({ state: 'detached' });
    await page.locator('[data-testid=org-delete-e2e-branch]').waitFor();
  }, 90_000);

  it('positions: creates, renames and deletes one', async () => {
    await page.goto(`${host.url}/system/position`);
    await page.locator('[data-testid=position-add]').click();
    await page.locator('#svc-pos-name').fill('E2E Engineer');
    await page.locator('#svc-pos-code').fill('e2e-eng');
    await page.locator('[data-testid=position-save]').click();
    await page.locator('[data-testid=position-edit-e2e-eng]').waitFor();
    await expect.poll(() => row('position-table', 'e2e-eng').textContent()).toContain('Enabled');

    // Renamed and disabled through the status dictionary select.
    await page.locator('[data-testid=position-edit-e2e-eng]').click();
    await page.locator('#svc-pos-name').fill('E2E Senior Engineer');
    await page.locator('[data-testid=position-form] .n-select').click();
    await page.locator('.n-base-select-option:visible', { hasText: 'Disabled' }).click();
    await page.locator('[data-testid=position-save]').click();
    await page.locator('[data-testid=position-form]').waitFor({ state: 'detached' });
    await expect.poll(() => row('position-table', 'e2e-eng').textContent()).toContain('E2E Senior Engineer');
    expect(await row('position-table', 'e2e-eng').textContent()).toContain('Disabled');
    await expectAccessible('positions');

    await page.locator('[data-testid=position-delete-e2e-eng]').click();
    await confirmDelete();
    await page.locator('[data-testid=position-edit-e2e-eng]').waitFor({ state: 'detached' });
  }, 90_000);

  it('modules: creates one, assigns a top-level menu to it, is refused while it has menus, then deletes it', async () => {
    await openFromMenu('Modules', /\/system\/module$/);
    await page.locator('[data-testid=module-edit-system]').waitFor();
    expect(await page.locator('[data-testid=module-delete-system]').count()).toBe(0);
    await page.locator('[data-testid=module-add]').click();
    await page.locator('#svc-mod-code').fill('e2e-mod');
    await page.locator('#svc-mod-title').fill('E2E Module');
    await page.locator('#svc-mod-prefix').fill('e2e');
    await page.locator('[data-testid=module-save]').click();
    await page.locator('[data-testid=module-delete-e2e-mod]').waitFor();
    expect(await row('module-table', 'e2e-mod').textContent()).toContain('E2E Module');
    await expectAccessible('modules');

    // A top-level catalog assigned to the module (the menu page's module assignment).
    await openFromMenu('Menus', /\/system\/menu$/);
    await page.locator('[data-testid=menu-add]').click();
    await page.locator('#svc-menu-title').fill('E2E Portal');
    await page.locator('#svc-menu-path').fill('/e2e-portal');
    await page.locator('[data-testid=menu-module]').click();
    await page.locator('.n-base-select-option:visible', { hasText: 'E2E Module (e2e-mod)' }).click();
    await page.locator('[data-testid=menu-save]').click();
    // A new sign-in is a new session: the menu write asks for the password again.
    const reauth = page.locator('#svc-reauth-password');
    await reauth.waitFor();
    await reauth.fill(ADMIN_PASSWORD);
    await page.locator('button[type=submit]', { hasText: 'OK' }).click();
    await reauth.waitFor({ state: 'detached' });
    const portal = row('menu-table', 'E2E Portal');
    await portal.waitFor();
    expect(await portal.textContent()).toContain('E2E Module (e2e-mod)');

    // While the catalog is there the service refuses the delete (42023), shown from the catalog.
    await openFromMenu('Modules', /\/system\/module$/);
    await page.locator('[data-testid=module-delete-e2e-mod]').click();
    await confirmDelete();
    await page.locator('.n-message', { hasText: 'The module still has menus.' }).waitFor();
    await page.locator('[data-testid=module-delete-e2e-mod]').waitFor();

    // Without it the module goes.
    await openFromMenu('Menus', /\/system\/menu$/);
    await portal.locator('[data-testid^=menu-delete-]').click();
    await confirmDelete();
    await portal.waitFor({ state: 'detached' });
    await openFromMenu('Modules', /\/system\/module$/);
    await page.locator('[data-testid=module-delete-e2e-mod]').click();
    await confirmDelete();
    await page.locator('[data-testid=module-edit-e2e-mod]').waitFor({ state: 'detached' });
  }, 90_000);

  it('dictionaries: a type with items shown by the dictionary select and tag; batch deletes', async () => {
    await openFromMenu('Dictionaries', /\/system\/dict$/);
    await page.locator('[data-testid=dict-type-items-common_status]').waitFor();
    for (const [code, name] of [
      ['e2e_level', 'E2E Level'],
      ['e2e_tmp', 'E2E Temporary'],
    ]) {
      await page.locator('[data-testid=dict-type-add]').click();
      await page.locator('#svc-dict-type-code').fill(code as string);
      await page.locator('#svc-dict-type-name').fill(name as string);
      await page.locator('[data-testid=dict-type-save]').click();
      await page.locator(`[data-testid=dict-type-items-${code}]`).waitFor();
    }

    await page.locator('[data-testid=dict-type-items-e2e_level]').click();
    await expect.poll(() => page.locator('[data-testid=dict-items] h2').textContent()).toContain('e2e_level');
    for (const [label, value] of [
      ['High', 'H'],
      ['Low', 'L'],
    ]) {
      await page.locator('[data-testid=dict-item-add]').click();
      await page.locator('#svc-dict-item-label').fill(label as string);
      await page.locator('#svc-dict-item-value').fill(value as string);
      await page.locator('[data-testid=dict-item-save]').click();
      await page.locator(`[data-testid=dict-item-edit-${value}]`).waitFor();
    }
    // The tag column reads the type through the dictionary store: the label of each value.
    await expect
      .poll(() => row('dict-item-table', 'Low').locator('.n-tag').first().textContent())
      .toBe('Low');

    // The dictionary select offers the new items; the picked value shows as its tag.
    await page.locator('[data-testid=dict-preview]').click();
    await page.locator('.n-base-select-option:visible', { hasText: 'High' }).click();
    await expect.poll(() => page.locator('[data-testid=dict-preview-tag]').textContent()).toBe('High');
    await expectAccessible('dictionaries');

    // Batch delete of one item: gone from the table and from the select's options.
    await row('dict-item-table', 'Low').locator('.n-checkbox').click();
    await page.locator('[data-testid=dict-item-batch-delete]').click();
    await confirmDelete();
    await page.locator('[data-testid=dict-item-edit-L]').waitFor({ state: 'detached' });
    await page.locator('[data-testid=dict-preview]').click();
    await page.locator('.n-base-select-option:visible', { hasText: 'High' }).waitFor();
    expect(await page.locator('.n-base-select-option:visible', { hasText: 'Low' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // Batch delete of a type.
    await row('dict-type-table', 'e2e_tmp').locator('.n-checkbox').click();
    await page.locator('[data-testid=dict-type-batch-delete]').click();
    await confirmDelete();
    await page.locator('[data-testid=dict-type-items-e2e_tmp]').waitFor({ state: 'detached' });
    await page.locator('[data-testid=dict-type-items-e2e_level]').waitFor();
  }, 90_000);
});
