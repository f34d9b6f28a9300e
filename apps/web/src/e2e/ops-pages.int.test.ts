/**
 * The operator pages end to end: Debian's Chromium (playwright-core) against the built host serving the built
 * console. The admin edits a config value (re-authentication dialog) and finds it kept after a reload; adds a
 * high-sensitivity code; uploads a file larger than one chunk through the chunked upload and sees it listed,
 * then the same content again and sees the instant upload (no chunk sent), resumes an upload whose connection
 * dropped (only the missing chunks travel), downloads a file byte-exact and batch-deletes one; restores a user
 * deleted through the API from the recycle bin; creates a cron job, sees the preview of its next fire times, runs it now and finds
 * the run in the log. Each page: opened from the side menu, no serious or critical axe violation, a screenshot
 * in apps/web/test-results/ (gitignored).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, SHOTS, seriousViolations } from './browser.js';
import { ADMIN_PASSWORD, buildConsole, consoleDefaults, type Host, startHost } from './host.js';

/**
 * How long a poll waits for a DOM state (vitest's default is 1 s): generous, so a loaded 2-core machine waits
 * longer instead of failing; a state that never comes still fails.
 */
const UNTIL = { timeout: 20_000, interval: 100 };
/** The console's chunk size (components/chunk-upload.ts DEFAULT_CHUNK_BYTES). */
const CHUNK_BYTES = 2 * 1024 * 1024;

/**
 * Axe on the page once nothing is in motion (a fading toast, a closing dialog, an open menu; `seriousViolations`
 * itself waits for loading tables and finite animations), with the pointer off the page so that no control shows
 * its hover colour, then a screenshot.
 */
async function checkAndShoot(page: Page, shot: string): Promise<void> {
  await page.mouse.move(0, 0);
  for (const selector of ['.n-modal', '.n-message', '.n-base-select-menu:visible']) {
    await page.locator(selector).first().waitFor({ state: 'detached', timeout: UNTIL.timeout });
  }
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: true });
}

/** Opens a page from the side menu by its seeded title and waits for its URL. */
async function openFromMenu(page: Page, title: string, path: RegExp): Promise<void> {
  await page
    .locator('[data-testid=side-menu] .n-menu-item-content', { hasText: new RegExp(`^${title}$`) })
    .click();
  await page.waitForURL(path);
}

/**
 * High-risk writes answer 40024 outside the re-authentication window: the dialog opens and the refused request
 * is replayed after it. Inside the window the write just happens. Either way, wait until `done` shows.
 */
async function reauthIfAsked(page: Page, done: Locator): Promise<void> {
  const dialog = page.locator('#svc-reauth-password');
  const first = await Promise.race([
    dialog.waitFor().then(() => 'dialog' as const),
    done.waitFor().then(() => 'done' as const),
  ]).catch(() => 'neither' as const);
  if (first === 'dialog') {
    await dialog.fill(ADMIN_PASSWORD);
    await page.locator('.n-modal button[type=submit]', { hasText: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  await done.waitFor();
}

/** Deterministic bytes (no two chunks alike), `size` long. */
function bytesOf(size: number, seed: number): Buffer {
  const buffer = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    buffer[i] = x >>> 24;
  }
  return buffer;
}

/** A JSON call of the service with a bearer token (the Node side of the test: a deletion to restore). */
async function call<T>(host: Host, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${host.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { code: number; msgKey: string; data: T };
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.msgKey}`);
  return envelope.data;
}

describe('operator pages in Chromium', () => {
  let host: Host;
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    host = await startHost(buildConsole());
    browser = await launchChromium();
    admin = await (await browser.newContext({ locale: 'en-US', acceptDownloads: true })).newPage();
    await consoleDefaults(admin);
    await admin.goto(`${host.url}/login`);
    await admin.locator('#svc-account').fill('superAdmin');
    await admin.locator('#svc-password').fill(ADMIN_PASSWORD);
    await admin.locator('[data-testid=login-form] button[type=submit]').click();
    await admin.locator('[data-testid=side-menu]').waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  }, 120_000);

  it('edits a config value in its group, confirms with the password, and finds it kept after a reload', async () => {
    await openFromMenu(admin, 'Configuration', /\/system\/config$/);
    // Groups from the keys: the security knobs first, the site keys in their own tab.
    const tabs = admin.locator('[data-testid=config-tabs] .n-tabs-tab');
    await expect.poll(() => tabs.first().textContent(), UNTIL).toMatch(/^Security \(\d+\)$/);
    await admin.locator('[data-testid="config-value-sys.security.password.minLength"]').waitFor();
    // The captcha type is edited with a select of the values its row carries from the server.
    const captchaType = admin.locator('[data-testid="config-value-sys.security.captcha.type"]');
    await captchaType.click();
    const choices = admin.locator('.n-base-select-option');
    await expect.poll(() => choices.allTextContents(), UNTIL).toEqual(['char', 'path', 'math']);
    await admin.keyboard.press('Escape');
    // The security knobs with their editors (switches, numbers, the captcha-type select) are labelled too.
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'config-security.png'), fullPage: true });
    await tabs.filter({ hasText: /^Site/ }).click();
    const footer = admin.locator('[data-testid="config-value-sys.site.footer"] input');
    await footer.fill('Run by the operator E2E');
    const save = admin.locator('[data-testid=config-save-batch]');
    await expect.poll(() => save.textContent(), UNTIL).toContain('Save changes (1)');
    await save.click();
    // Config writes are high-risk: the dialog opens, the password opens the window, the batch is replayed.
    const dialog = admin.locator('#svc-reauth-password');
    await dialog.waitFor();
    await dialog.fill(ADMIN_PASSWORD);
    await admin.locator('.n-modal button[type=submit]', { hasText: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.locator('.n-message', { hasText: '1 settings saved.' }).waitFor();
    await expect.poll(() => save.textContent(), UNTIL).toContain('Save changes (0)');

    await admin.reload();
    await admin.locator('[data-testid=config-tabs] .n-tabs-tab', { hasText: /^Site/ }).click();
    await expect
      .poll(() => admin.locator('[data-testid="config-value-sys.site.footer"] input').inputValue(), UNTIL)
      .toBe('Run by the operator E2E');
    await checkAndShoot(admin, 'config');

    // A key of the operator's own: its first segment makes a new tab; a key the service does not read can go.
    await admin.locator('[data-testid=config-add]').click();
    await admin.locator('#svc-cfg-new-key').fill('shop.orders.limit');
    await admin.locator('#svc-cfg-new-name').fill('Open orders per customer');
    await admin.locator('#svc-cfg-new-value').fill('12');
    await admin.locator('[data-testid=config-create]').click();
    await reauthIfAsked(
      admin,
      admin.locator('[data-testid=config-tabs] .n-tabs-tab', { hasText: /^shop \(1\)$/ }),
    );
    await admin.locator('[data-testid=config-tabs] .n-tabs-tab', { hasText: /^shop/ }).click();
    await expect
      .poll(() => admin.locator('[data-testid="config-value-shop.orders.limit"] input').inputValue(), UNTIL)
      .toBe('12');
    // The filter narrows every tab at once.
    await admin.locator('[data-testid=config-filter] input').fill('orders');
    await expect.poll(() => tabs.allTextContents(), UNTIL).toEqual(['shop (1)']);
    await admin.locator('[data-testid="config-delete-shop.orders.limit"]').click();
    await admin.locator('[data-testid="config-delete-shop.orders.limit-ok"]').click();
    await expect.poll(() => tabs.count(), UNTIL).toBe(0);
    await admin.locator('[data-testid=config-filter] input').fill('');
    await expect.poll(() => tabs.allTextContents(), UNTIL).toEqual(['Security (23)', 'Site (3)']);
  }, 120_000);

  it('adds a high-sensitivity permission code picked from the service routes', async () => {
    await openFromMenu(admin, 'High-sensitivity permissions', /\/system\/security$/);
    const table = admin.locator('[data-testid=hs-table]');
    await expect.poll(() => table.textContent(), UNTIL).toContain('DELETE:/api/v1/sys/user/{id}');
    // Not in the built-in set (the audit-log clears are, contract §11), so it can be added.
    const code = 'DELETE:/api/v1/sys/notice/{id}';
    await admin.locator('[data-testid=hs-add]').click();
    await admin.locator('[data-testid=hs-code]').click();
    await admin.keyboard.type(code);
    await admin.locator('.n-base-select-option', { hasText: new RegExp(`^${code}$`) }).click();
    await admin.locator('#svc-hs-remark').fill('Deleting a notice');
    await admin.locator('[data-testid=hs-save]').click();
    await reauthIfAsked(admin, admin.locator(`[data-testid="hs-delete-${code}"]`));
    await admin.locator('[data-testid=hs-form]').waitFor({ state: 'detached' });
    const row = table.locator('tr', { hasText: code });
    await expect.poll(() => row.textContent(), UNTIL).toContain('Deleting a notice');
    expect(await row.textContent()).toContain('Added');
    await checkAndShoot(admin, 'security');
    // Added codes can be deleted again (built-in ones have no delete button).
    await admin.locator(`[data-testid="hs-delete-${code}"]`).click();
    await admin.locator(`[data-testid="hs-delete-${code}-ok"]`).click();
    await expect.poll(() => table.textContent(), UNTIL).not.toContain(code);
    expect(await admin.locator('[data-testid="hs-delete-DELETE:/api/v1/sys/user/{id}"]').count()).toBe(0);
  }, 120_000);

  it('uploads a file in chunks, lists it, uploads the same content instantly, resumes a broken upload', async () => {
    await openFromMenu(admin, 'Files', /\/system\/file$/);
    // Chunk requests sent, and the indexes the server stored (its answer names the index).
    const isChunk = (method: string, url: string) =>
      method === 'POST' && new URL(url).pathname === '/api/v1/sys/file/chunk';
    let chunkRequests = 0;
    const stored: number[] = [];
    admin.on('request', (request) => {
      if (isChunk(request.method(), request.url())) chunkRequests += 1;
    });
    admin.on('response', async (response) => {
      if (!isChunk(response.request().method(), response.url())) return;
      const body = (await response.json().catch(() => undefined)) as { data?: { index: number } } | undefined;
      if (body?.data) stored.push(body.data.index);
    });
    const content = bytesOf(CHUNK_BYTES + 300 * 1024, 7);
    const input = admin.locator('[data-testid=chunk-file]');
    const status = admin.locator('[data-testid=chunk-status]');
    await input.setInputFiles({ name: 'e2e-data.txt', mimeType: 'text/plain', buffer: content });
    await expect
      .poll(() => status.textContent(), { ...UNTIL, timeout: 60_000 })
      .toBe('Uploaded: e2e-data.txt');
    await expect.poll(() => [...stored], UNTIL).toEqual([0, 1]);
    expect(chunkRequests).toBe(2);
    const table = admin.locator('[data-testid=file-table]');
    await expect.poll(() => table.textContent(), UNTIL).toContain('e2e-data.txt');
    expect(await table.textContent()).toContain('2.3 MB');

    // The same bytes under another name: init answers the stored file, no chunk travels.
    await input.setInputFiles({ name: 'e2e-copy.txt', mimeType: 'text/plain', buffer: content });
    await expect
      .poll(() => status.textContent(), { ...UNTIL, timeout: 60_000 })
      .toBe('Instant upload: the server already had this content, stored as e2e-copy.txt');
    expect(chunkRequests).toBe(2);
    await expect.poll(() => table.textContent(), UNTIL).toContain('e2e-copy.txt');

    // Resume: the connection drops on the second chunk of a three-chunk file; "Resume" sends only what the
    // server is missing (its init answers the received indexes).
    stored.length = 0;
    chunkRequests = 0;
    let chunkCalls = 0;
    await admin.route('**/api/v1/sys/file/chunk', (route) => {
      chunkCalls += 1;
      return chunkCalls === 2 ? route.abort('connectionreset') : route.continue();
    });
    await input.setInputFiles({
      name: 'e2e-resume.txt',
      mimeType: 'text/plain',
      buffer: bytesOf(2 * CHUNK_BYTES + 100 * 1024, 11),
    });
    const resume = admin.locator('[data-testid=chunk-resume]');
    await resume.waitFor();
    expect(chunkRequests).toBe(2);
    await expect.poll(() => [...stored], UNTIL).toEqual([0]);
    await admin.unroute('**/api/v1/sys/file/chunk');
    await resume.click();
    await expect
      .poll(() => status.textContent(), { ...UNTIL, timeout: 60_000 })
      .toBe('Uploaded: e2e-resume.txt (resumed, 1 chunks were already on the server)');
    await expect.poll(() => [...stored], UNTIL).toEqual([0, 1, 2]);
    expect(chunkRequests).toBe(4);
    await expect.poll(() => table.textContent(), UNTIL).toContain('e2e-resume.txt');

    // Download goes through the bearer-only route and hands the browser the original bytes.
    const row = table.locator('tr', { hasText: 'e2e-data.txt' });
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      row.locator('[data-testid^=file-download-]').click(),
    ]);
    expect(download.suggestedFilename()).toBe('e2e-data.txt');
    const saved = await download.path();
    expect(readFileSync(saved).equals(content)).toBe(true);
    await checkAndShoot(admin, 'files');

    // Batch delete of the copy (to the recycle bin): selected by its labelled checkbox, confirmed.
    await table.locator('tr', { hasText: 'e2e-copy.txt' }).locator('[data-testid^=file-select-]').click();
    const batch = admin.locator('[data-testid=file-batch-delete]');
    await expect.poll(() => batch.textContent(), UNTIL).toBe('Delete selected (1)');
    await batch.click();
    await admin.locator('.n-popconfirm__action button', { hasText: 'OK' }).click();
    await expect.poll(() => table.textContent(), UNTIL).not.toContain('e2e-copy.txt');
    expect(await table.textContent()).toContain('e2e-data.txt');
  }, 120_000);

  it('restores from the recycle bin a user deleted through the API', async () => {
    const token = (
      await call<{ accessToken: string }>(host, '', 'POST', '/api/v1/auth/login', {
        account: 'superAdmin',
        password: ADMIN_PASSWORD,
      })
    ).accessToken;
    const { id } = await call<{ id: number }>(host, token, 'POST', '/api/v1/sys/user', {
      account: 'e2e-binned',
      realName: 'Binned User',
      password: 'E2e-Binned-Pass-1',
    }).catch(async () => {
      // User writes are high-risk: open this session's window first, then create.
      await call(host, token, 'POST', '/api/v1/auth/reauth', {
        method: 'password',
        password: ADMIN_PASSWORD,
      });
      return call<{ id: number }>(host, token, 'POST', '/api/v1/sys/user', {
        account: 'e2e-binned',
        realName: 'Binned User',
        password: 'E2e-Binned-Pass-1',
      });
    });
    await call(host, token, 'DELETE', `/api/v1/sys/user/${id}`);

    await openFromMenu(admin, 'Recycle bin', /\/system\/recycle$/);
    await admin.locator('[data-testid=recycle-type-user]').click();
    const restore = admin.locator('[data-testid=recycle-restore-e2e-binned]');
    await restore.waitFor();
    expect(await admin.locator('[data-testid=recycle-table]').textContent()).toContain('Binned User');
    await checkAndShoot(admin, 'recycle');
    await restore.click();
    await admin.locator('.n-message', { hasText: 'Restored: e2e-binned' }).waitFor();
    await restore.waitFor({ state: 'detached' });

    await openFromMenu(admin, 'Users', /\/system\/user$/);
    await admin.locator('[data-testid=edit-e2e-binned]').waitFor();
  }, 120_000);

  it('creates a cron job with a live preview, pauses, resumes and runs it, finds the run in the log, edits it', async () => {
    await openFromMenu(admin, 'Scheduled jobs', /\/monitor\/job$/);
    await admin.locator('[data-testid=job-status-sys-job-log-cleanup]').waitFor();
    await admin.locator('[data-testid=job-add]').click();
    await admin.locator('#svc-job-code').fill('e2e-nightly');
    await admin.locator('#svc-job-name').fill('E2E nightly');
    await admin.locator('[data-testid=job-handler]').click();
    await admin.locator('.n-base-select-option', { hasText: 'sys-job-log-cleanup' }).click();
    // A wrong expression shows the service's reason; a right one its next five fire times (UTC).
    const preview = admin.locator('[data-testid=job-cron-preview]');
    await admin.locator('#svc-job-cron').fill('0 15 10 * *');
    await expect
      .poll(() => preview.textContent(), UNTIL)
      .toMatch(/The cron expression is not valid: six or seven fields/);
    await admin.locator('#svc-job-cron').fill('0 15 10 * * ?');
    const times = admin.locator('[data-testid=job-cron-time]');
    await expect.poll(() => times.count(), UNTIL).toBe(5);
    expect(await preview.textContent()).toContain('Next fire times of 0 15 10 * * ?');
    for (const text of await times.allTextContents()) expect(text).toMatch(/T10:15:00\.000Z\)$/);
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: join(SHOTS, 'job-form.png'), fullPage: true });
    await admin.locator('[data-testid=job-save]').click();
    await reauthIfAsked(admin, admin.locator('[data-testid=job-run-e2e-nightly]'));
    await admin.locator('[data-testid=job-form]').waitFor({ state: 'detached' });
    await expect
      .poll(() => admin.locator('[data-testid=job-status-e2e-nightly]').textContent(), UNTIL)
      .toBe('Ready');

    // Pause and resume (high-risk writes, inside the window the earlier dialog opened or through the dialog).
    await admin.locator('[data-testid=job-pause-e2e-nightly]').click();
    await reauthIfAsked(admin, admin.locator('[data-testid=job-resume-e2e-nightly]'));
    expect(await admin.locator('[data-testid=job-status-e2e-nightly]').textContent()).toBe('Paused');
    await admin.locator('[data-testid=job-resume-e2e-nightly]').click();
    await reauthIfAsked(admin, admin.locator('[data-testid=job-pause-e2e-nightly]'));
    expect(await admin.locator('[data-testid=job-status-e2e-nightly]').textContent()).toBe('Ready');

    await admin.locator('[data-testid=job-run-e2e-nightly]').click();
    await admin.locator('.n-message', { hasText: 'E2E nightly was started.' }).waitFor();
    await checkAndShoot(admin, 'jobs');

    // The log tab, filtered to this job: the manual run ends successfully (the page refreshes while it runs).
    await admin.locator('[data-testid=job-log-e2e-nightly]').click();
    const log = admin.locator('[data-testid=job-log-table]');
    await expect
      .poll(async () => {
        await admin.locator('[data-testid=job-log-refresh]').click();
        return log.locator('tbody tr').first().textContent();
      }, UNTIL)
      .toMatch(/^E2E nightlyManual.*Success/);
    await checkAndShoot(admin, 'job-log');

    await admin.locator('[data-testid=job-tabs] .n-tabs-tab', { hasText: 'Dashboard' }).click();
    const success = admin.locator('[data-testid=job-dash-success]');
    await expect
      .poll(async () => Number((await success.textContent())?.replace(/\D/g, '')), UNTIL)
      .toBeGreaterThan(0);
    await checkAndShoot(admin, 'job-dashboard');

    // Edit: the same job on a fixed interval instead of cron.
    await admin.locator('[data-testid=job-tabs] .n-tabs-tab', { hasText: 'Jobs' }).click();
    await admin.locator('[data-testid=job-edit-e2e-nightly]').click();
    expect(await admin.locator('#svc-job-code').isDisabled()).toBe(true);
    await admin.locator('[data-testid=job-trigger-interval]').click();
    await admin.locator('#svc-job-interval').fill('30');
    await admin.locator('[data-testid=job-save]').click();
    const row = admin.locator('[data-testid=job-table] tr', { hasText: 'e2e-nightly' });
    await reauthIfAsked(admin, row.locator('code', { hasText: 'every 30 s' }));
    await admin.locator('[data-testid=job-form]').waitFor({ state: 'detached' });
  }, 120_000);
});
