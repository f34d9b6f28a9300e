/**
 * Import and export in the console, end to end: Debian's Chromium (playwright-core) against the built host
 * serving the built console. The admin downloads the user import template (exceljs opens it), fills two good rows
 * and one with a gender outside the dictionary, and goes through the wizard: the preview marks the bad cell, the
 * validation lists the row's catalog message, the error report downloads with it, and the commit with "Skip"
 * imports the two good users, who then show in the list. The same file again: the two accounts exist (46010),
 * the bad cell is corrected in the table and validated again, and "Skip" skips two and creates the third. The
 * export of the filtered list downloads a workbook holding exactly the three with the chosen columns; the
 * operation-log export downloads too and lists the import.
 * axe-core finds no serious or critical violation on any step. Screenshots go to apps/web/test-results/.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Download, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchChromium, SHOTS, seriousViolations, signIn } from './browser.js';
import { ADMIN_PASSWORD, buildConsole, consoleDefaults, type Host, startHost, WEB_ROOT } from './host.js';

const require = createRequire(import.meta.url);
/** The part of exceljs the test uses (typed here: apps/web does not depend on exceljs). */
interface XlsxSheet {
  name: string;
  getRow(row: number): { values: unknown };
  getCell(row: number, column: number): { value: unknown };
  eachRow(visit: (row: { values: unknown }) => void): void;
}
interface XlsxWorkbook {
  worksheets: XlsxSheet[];
  getWorksheet(name: string): XlsxSheet | undefined;
  xlsx: { load(data: ArrayBuffer): Promise<unknown>; writeBuffer(): Promise<ArrayBuffer> };
}
/** exceljs is a dependency of @svc/http (the server writes the workbooks); the test reads them with that copy. */
const ExcelJS = require(require.resolve('exceljs', { paths: [join(WEB_ROOT, '../../packages/http')] })) as {
  Workbook: new () => XlsxWorkbook;
};
/** The configured initial password of imported accounts (contract §10: the commit refuses without one). */
const IMPORT_PASSWORD = 'E2e-Import-Pass-1';

/**
 * Waits for `next`; when the re-authentication dialog comes first (a high-sensitivity write answered 40024),
 * passes it with the admin's password, and the console replays the request. The import routes do not ask for it
 * today (they are registered without `reauth`, although POST /sys/user/* is in the default high-sensitivity set);
 * the test takes both ways so it keeps passing when the service closes that gap.
 */
async function passReauthIfAsked(page: Page, next: Locator): Promise<void> {
  const dialog = page.locator('#svc-reauth-password');
  await next.or(dialog).first().waitFor();
  if (await dialog.isVisible()) {
    await dialog.fill(ADMIN_PASSWORD);
    await page.locator('button[type=submit]', { hasText: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  await next.waitFor();
}

/** Clicks and waits for the download the click starts. */
async function downloadOn(page: Page, selector: string): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return download;
}

/** The first worksheet of a downloaded workbook as rows of cell texts (row 1 = headers; rows padded to it). */
async function sheetOf(download: Download): Promise<{ name: string; rows: string[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error(`no worksheet in ${download.suggestedFilename()}`);
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const values = (row.values as unknown[]).slice(1);
    rows.push(Array.from(values, (v) => (v === null || v === undefined ? '' : String(v))));
  });
  const width = rows[0]?.length ?? 0;
  return {
    name: sheet.name,
    rows: rows.map((r) => [...r, ...Array(Math.max(0, width - r.length)).fill('')]),
  };
}

describe('import and export in the console', () => {
  let host: Host;
  let browser: Browser;

  beforeAll(async () => {
    host = await startHost(buildConsole(), { Service__Security__DefaultInitialPassword: IMPORT_PASSWORD });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('imports users through the wizard, exports them and exports the operation log', async () => {
    const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
    const page = await context.newPage();
    await consoleDefaults(page);
    // No page error may happen on the way (a failing setup or watcher only shows as a missing dialog).
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      // Answers with an error status (a 40024 before re-authentication) are logged by Chromium: not page errors.
      if (/Failed to load resource/.test(m.text())) return;
      if (m.type() === 'error' || /Unhandled error/.test(m.text())) pageErrors.push(m.text());
    });
    // Every API answer the page gets, and what the host logged, printed when the test fails.
    const calls: string[] = [];
    page.on('response', (response) => void record(response).catch((e) => calls.push(`unrecorded: ${e}`)));
    const record = async (response: Response) => {
      const url = new URL(response.url());
      if (!url.pathname.startsWith('/api/')) return;
      const method = response.request().method();
      let note = '';
      if ((response.headers()['content-type'] ?? '').includes('json')) {
        const body = (await response.json().catch(() => undefined)) as
          | { code?: number; data?: { mapping?: unknown; columnErrors?: unknown; headers?: unknown } }
          | undefined;
        note = `code ${body?.code}`;
        if (url.pathname.endsWith('/import/preview')) {
          const sent = response.request().postData() ?? '';
          note += ` sent ${/name="mapping"\r\n\r\n([^\r]*)/.exec(sent)?.[1] ?? '(none)'}`;
          note += ` headers ${JSON.stringify(body?.data?.headers)} mapping ${JSON.stringify(body?.data?.mapping)}`;
          note += ` columnErrors ${JSON.stringify(body?.data?.columnErrors)}`;
        } else if (body?.code !== 0) note += ` ${String(JSON.stringify(body)).slice(0, 400)}`;
      }
      calls.push(`${new Date().toISOString()} ${method} ${url.pathname} ${response.status()} ${note}`);
    };
    page.on('requestfailed', (request) =>
      calls.push(
        `${new Date().toISOString()} ${request.method()} ${request.url()} failed ${request.failure()?.errorText}`,
      ),
    );
    onTestFailed(async () => {
      const toasts = await page
        .locator('.n-message')
        .allTextContents()
        .catch(() => []);
      console.log(
        `API answers:\n${calls.join('\n')}\ntoasts: ${JSON.stringify(toasts)}\nhost log:\n${host.log().slice(-6000)}`,
      );
    });
    await signIn(page, host.url, 'superAdmin', ADMIN_PASSWORD);
    const menu = page.locator('[data-testid=side-menu]');
    await menu.waitFor();

    // The users page through the side menu (its catalogs start expanded).
    await menu.getByText('Users', { exact: true }).click();
    await page.waitForURL(/\/system\/user$/);
    await page.locator('[data-testid=user-import]').click();
    const wizard = page.locator('[data-testid=import-wizard]');
    await wizard.locator('[data-testid=import-step-file]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'import-file.png'), fullPage: true });

    // The template: a workbook whose first sheet carries the import headers.
    const template = await downloadOn(page, '[data-testid=import-template]');
    expect(template.suggestedFilename()).toBe('user-import-template.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await template.path()) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Users');
    if (!sheet) throw new Error('the template has no Users sheet');
    const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(headers).toEqual(expect.arrayContaining(['Account', 'Real name', 'Organisation code', 'Gender']));
    // Two good rows and one whose gender is not in the dictionary, written into the template itself.
    const fill = (row: number, cells: Record<string, string>) => {
      for (const [header, value] of Object.entries(cells))
        sheet.getCell(row, headers.indexOf(header) + 1).value = value;
    };
    fill(2, {
      Account: 'e2e-imp-ann',
      'Real name': 'Ann Import',
      'Organisation code': 'root',
      Gender: 'Female',
    });
    fill(3, {
      Account: 'e2e-imp-bob',
      'Real name': 'Bob Import',
      'Organisation code': 'root',
      Email: 'bob@e2e.test',
    });
    fill(4, {
      Account: 'e2e-imp-bad',
      'Real name': 'Bad Import',
      'Organisation code': 'root',
      Gender: 'Robot',
    });
    const filled = {
      name: 'users.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
    };
    await page.locator('#svc-import-file').setInputFiles(filled);
    await page.locator('[data-testid=import-preview]').click();

    // The re-authentication dialog, if the service asks for it (see passReauthIfAsked).
    const previewStep = wizard.locator('[data-testid=import-step-preview]');
    await passReauthIfAsked(page, previewStep);

    // Preview: the mapping found every header, three rows, the bad gender cell marked.
    await expect
      .poll(() => wizard.locator('[data-testid=import-summary]').textContent())
      .toBe('3 rows, 1 with errors.');
    await wizard.locator('[data-testid=import-cell-error-3-gender]').waitFor();
    expect(await wizard.locator('[data-testid=import-row-errors-1]').count()).toBe(0);
    // The mapping: each sheet header has a labelled field, preset to the column the server matched.
    expect(await wizard.getByLabel('Real name', { exact: true }).count()).toBe(1);
    expect(await wizard.locator('[data-testid="import-map-Real name"]').textContent()).toContain('Name');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'import-preview.png'), fullPage: true });

    // Mapping "Account" to Ignore leaves a required column missing (46004): no validation until it is mapped back.
    const remap = async (header: string, option: string) => {
      const select = wizard.locator(`[data-testid="import-map-${header}"]`);
      // The choice must be taken (the select shows it) before it is applied, or the old mapping is sent again: a
      // click that lands while the menu still opens, or on the closing menu of the previous choice, is not taken.
      // Such a click is tried again (a state to reach, not a time to wait).
      for (let tries = 0; !(await select.textContent())?.includes(option); tries += 1) {
        if (tries === 3) throw new Error(`the mapping of ${header} does not take ${option}`);
        await select.click();
        await page
          .locator('.n-base-select-menu:visible .n-base-select-option', {
            hasText: new RegExp(`^${option}$`),
          })
          .click();
        await page
          .locator('.n-base-select-menu')
          .first()
          .waitFor({ state: 'hidden' })
          .catch(() => {});
      }
      await expect.poll(() => validateButton.isDisabled()).toBe(true);
      // Applied once the preview it sends has answered (its answer is what the wizard shows next).
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/import/preview')),
        wizard.locator('[data-testid=import-remap]').click(),
      ]);
    };
    const validateButton = wizard.locator('[data-testid=import-validate]');
    const columnErrors = wizard.locator('[data-testid=import-column-errors]');
    await remap('Account', 'Ignore');
    await passReauthIfAsked(page, columnErrors);
    await expect.poll(() => columnErrors.textContent()).toBe('Account: A required column is missing.');
    expect(await validateButton.isDisabled()).toBe(true);
    // Mapped back, the column is there again.
    await remap('Account', 'Account');
    await columnErrors.waitFor({ state: 'detached' });
    await expect.poll(() => validateButton.isEnabled()).toBe(true);
    expect(await wizard.locator('[data-testid=import-summary]').textContent()).toBe('3 rows, 1 with errors.');

    // Validate: the bad row's catalog message (46006), per row.
    await validateButton.click();
    await wizard.locator('[data-testid=import-step-validate]').waitFor();
    const badRow = wizard.locator('[data-testid=import-error-3]');
    await expect.poll(() => badRow.textContent()).toBe('Row 3: Gender: This value is not in the dictionary.');
    expect(await wizard.locator('[data-testid=import-error-1]').count()).toBe(0);
    // "Only rows with errors" narrows the table to the bad row.
    await wizard.locator('[data-testid=import-only-errors]').click();
    await wizard.locator('[data-testid=import-row-1]').waitFor({ state: 'detached' });
    expect(await wizard.locator('[data-testid=import-row-3]').count()).toBe(1);
    await wizard.locator('[data-testid=import-only-errors]').click();
    await wizard.locator('[data-testid=import-row-1]').waitFor();
    await expect.poll(() => wizard.locator('[data-testid=import-left-out]').textContent()).toContain('1');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'import-validate.png'), fullPage: true });

    // The error report: the rows with an errors column naming the code.
    const report = await sheetOf(await downloadOn(page, '[data-testid=import-error-report]'));
    const errorsAt = report.rows[0]?.indexOf('Errors') ?? -1;
    expect(errorsAt).toBeGreaterThan(0);
    const reportBad = report.rows.find((r) => r.includes('e2e-imp-bad'));
    expect(reportBad?.[errorsAt]).toContain('46006');
    expect(report.rows.find((r) => r.includes('e2e-imp-ann'))?.[errorsAt] ?? '').toBe('');

    // Commit with Skip: the two good rows go in, the bad one is left out.
    await wizard.locator('[data-testid=import-strategy-skip]').click();
    const commit = wizard.locator('[data-testid=import-commit]');
    await expect.poll(() => commit.textContent()).toContain('Import 2 rows');
    await commit.click();
    await passReauthIfAsked(page, wizard.locator('[data-testid=import-step-result]'));
    await expect.poll(() => wizard.locator('[data-testid=import-result-inserted]').textContent()).toBe('2');
    expect(await wizard.locator('[data-testid=import-result-failed]').textContent()).toBe('0');
    expect(await wizard.locator('[data-testid=import-result-skipped]').textContent()).toBe('0');
    expect(await wizard.locator('[data-testid=import-result-leftOut]').textContent()).toBe('1');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'import-result.png'), fullPage: true });
    await wizard.locator('[data-testid=import-close]').click();
    await wizard.waitFor({ state: 'detached' });

    // The list shows the imported users, and not the bad one.
    await page.locator('[data-testid=edit-e2e-imp-ann]').waitFor();
    await page.locator('[data-testid=edit-e2e-imp-bob]').waitFor();
    expect(await page.locator('[data-testid=edit-e2e-imp-bad]').count()).toBe(0);

    // The same file again: the two accounts exist now (46010), and the bad cell is corrected in the table.
    await page.locator('[data-testid=user-import]').click();
    await wizard.locator('[data-testid=import-step-file]').waitFor();
    await page.locator('#svc-import-file').setInputFiles(filled);
    await wizard.locator('[data-testid=import-file-name]').waitFor();
    await page.locator('[data-testid=import-preview]').click();
    await passReauthIfAsked(page, previewStep);
    await wizard.locator('[data-testid=import-validate]').click();
    await wizard.locator('[data-testid=import-step-validate]').waitFor();
    await expect
      .poll(() => wizard.locator('[data-testid=import-error-1]').textContent())
      .toBe('Row 1: Account: This value already exists.');
    await wizard.locator('[data-testid=import-input-3-gender]').fill('Male');
    // An edit makes the check stale: no commit before validating again.
    await expect.poll(() => commit.isDisabled()).toBe(true);
    await wizard.locator('[data-testid=import-revalidate]').click();
    await expect.poll(() => wizard.locator('[data-testid=import-error-3]').count()).toBe(0);
    await expect.poll(() => commit.isEnabled()).toBe(true);
    expect(await commit.textContent()).toContain('Import 3 rows');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'import-edit.png'), fullPage: true });
    // Skip: the existing accounts are counted as skipped, the corrected row is created.
    await commit.click();
    await passReauthIfAsked(page, wizard.locator('[data-testid=import-step-result]'));
    await expect.poll(() => wizard.locator('[data-testid=import-result-inserted]').textContent()).toBe('1');
    expect(await wizard.locator('[data-testid=import-result-skipped]').textContent()).toBe('2');
    expect(await wizard.locator('[data-testid=import-result-updated]').textContent()).toBe('0');
    await wizard.locator('[data-testid=import-close]').click();
    await wizard.waitFor({ state: 'detached' });
    await page.locator('[data-testid=edit-e2e-imp-bad]').waitFor();

    // Export with the current filter and chosen columns: exactly the three imported users.
    await page.getByRole('textbox', { name: 'Account' }).fill('e2e-imp');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('main .n-data-table-tbody tr').count()).toBe(3);
    await page.locator('[data-testid=user-export]').click();
    const exportDialog = page.locator('[data-testid=user-export-dialog]');
    await exportDialog.waitFor();
    await exportDialog.locator('[data-testid=user-export-column-phone]').click();
    await exportDialog.locator('[data-testid=user-export-column-enabled]').click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'user-export.png'), fullPage: true });
    const exported = await downloadOn(page, '[data-testid=user-export-download]');
    expect(exported.suggestedFilename()).toBe('users.xlsx');
    const users = await sheetOf(exported);
    expect(users.rows[0]).toEqual(['Account', 'Real name', 'Email']);
    expect(users.rows.slice(1).sort()).toEqual([
      ['e2e-imp-ann', 'Ann Import', ''],
      ['e2e-imp-bad', 'Bad Import', ''],
      ['e2e-imp-bob', 'Bob Import', 'bob@e2e.test'],
    ]);
    await exportDialog.waitFor({ state: 'detached' });

    // The operation log (through its URL) exports too, and the workbook lists the import's commit.
    // The log is written in batches: reload until the commit's row is there.
    await page.goto(`${host.url}/monitor/log/op`);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.locator('[data-testid=log-export]').waitFor();
          await page.waitForLoadState('networkidle');
          return page.locator('main .n-data-table').textContent();
        },
        { timeout: 30_000 },
      )
      .toContain('/api/v1/sys/user/import/commit');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'op-log-export.png'), fullPage: true });
    const opLog = await downloadOn(page, '[data-testid=log-export]');
    expect(opLog.suggestedFilename()).toBe('op-log.xlsx');
    const log = await sheetOf(opLog);
    expect(log.rows[0]).toEqual([
      'Title',
      'Method',
      'Path',
      'Result code',
      'Elapsed ms',
      'Operator',
      'IP',
      'Time',
    ]);
    const pathAt = 2;
    expect(log.rows.slice(1).map((r) => r[pathAt])).toContain('/api/v1/sys/user/import/commit');
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
