/**
 * The browser side of the E2E files: Debian's Chromium through playwright-core, the axe-core check every page
 * passes, and the login form. One copy for every file.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { WEB_ROOT } from './host.js';

export const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';
/** Screenshots of every page the tests visit. */
export const SHOTS = join(WEB_ROOT, 'test-results');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Debian's Chromium, headless (the screenshot directory made); a clear error when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is needed at ${CHROMIUM} (bash scripts/ensure-services.sh installs it as root).`,
    );
  }
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
  });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: unknown[]; html: string }>;
}

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function seriousViolations(page: Page, session?: CDPSession): Promise<string[]> {
  // A table that is loading dims its rows behind a veil until the answer is in (every cell once failed colour
  // contrast that way, a poll having clicked a last refresh just before the check): wait until none is loading.
  await page.locator('.n-data-table--loading').first().waitFor({ state: 'detached' });
  // A dialog fading in is half transparent: axe would measure its text against the page behind. Wait until the
  // finite animations and transitions are over (spinners run forever and do not count), the veil's fade included.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  // Through the DevTools protocol, not a script tag: the console's content security policy refuses inline
  // scripts (as it should), and the tests run under it. A page that holds a session of its own passes it: closing
  // another one ends what that one set up (Chromium drops the page's virtual authenticators then).
  const cdp = session ?? (await page.context().newCDPSession(page));
  await cdp.send('Runtime.evaluate', { expression: AXE });
  if (!session) await cdp.detach();
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    return (await axe.run(document)).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.html.slice(0, 120)}`),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} at ${v.nodes.join(' | ')}`);
}

/** Fills and sends the login form. */
export async function signIn(page: Page, url: string, account: string, password: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.locator('#svc-account').fill(account);
  await page.locator('#svc-password').fill(password);
  await page.locator('[data-testid=login-form] button[type=submit]').click();
}
