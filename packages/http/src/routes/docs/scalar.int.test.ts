/**
 * `/scalar` renders the contract in a real browser with no internet: headless Chromium (Debian's `chromium`,
 * driven by playwright-core) opens the page of a listening host while every request that leaves the host is
 * refused, and the reference must still show the operations. Fails when the page needs a CDN.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from '../../host/listen.js';
import { startTestServer, type TestServer } from '../../testing/index.js';

const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';

describe('API reference page offline', () => {
  let t: TestServer;
  let running: ListeningServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is needed at ${CHROMIUM} (bash scripts/ensure-services.sh installs it as root).`,
      );
    }
    t = await startTestServer();
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await running?.shutdown();
    await t?.close();
  });

  it('serves the bundle from the installed package, not a CDN', async () => {
    const page = await (await fetch(`${running.url}/scalar`)).text();
    const src = /<script src="([^"]+)"><\/script>/.exec(page)?.[1];
    expect(src).toMatch(/^\/scalar\/standalone\.js\?v=\d+\.\d+\.\d+/);
    const script = await fetch(`${running.url}${src}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(Number((await script.arrayBuffer()).byteLength)).toBeGreaterThan(100_000);
  });

  it('renders the operations with every outside request refused', async () => {
    const context = await browser.newContext();
    const outside: string[] = [];
    const origin = new URL(running.url).origin;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:'))
        return route.continue();
      outside.push(url);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${running.url}/scalar`);
    // The first tag opens with its operations' summaries; the other tags are listed: the reference loaded the
    // contract and drew it.
    await page.getByText('Liveness probe').first().waitFor({ timeout: 20_000 });
    await page.getByText('GET /health/ready').first().waitFor({ timeout: 20_000 });
    for (const tag of ['Auth', 'Users', 'Roles']) {
      expect(await page.getByText(tag, { exact: true }).count(), tag).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
    await context.close();
    // Nothing the page needs lives outside the host (requests it tried are listed to show what was refused).
    expect(outside.filter((url) => /\.(js|css)(\?|$)/.test(url))).toEqual([]);
  });
});
