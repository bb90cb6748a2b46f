/**
 * The standalone mock's live page (`/__mock/live`) in a real Chromium: the mock started with a control
 * token, the token entered on the page, a login and a workspaces search whose `searchValue` is
 * `<script>alert(1)</script>` sent by the test. The request appears (endpoint, status), its body shows
 * the script as text (no script element injected, no dialog), the token is in no URL the page
 * requested, and the page's parts are there. The screenshot goes to docs/media/live-page.png (the
 * mock-server guide shows it); BROWSER_SCREENSHOT=<path> keeps another copy.
 *
 * Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH); without it the test fails, it does not skip.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  launchChromium,
  type Page,
  recordPageErrors,
} from '../../examples/browser-dashboard/harness.js';
import { listen, type RunningMockServer } from '../../packages/mock-server/src/adapters/node.js';

const TOKEN = 'live-page-control-token-9f8e7d6c5b4a';
const KEYS = { accessKey: 'ak_live_page', secretKey: 'sk_live_page_secret' };
const XSS = '<script>alert(1)</script>';
const SCREENSHOT = fileURLToPath(new URL('../../docs/media/live-page.png', import.meta.url));
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the live page (/__mock/live) in Chromium', () => {
  let mock: RunningMockServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const requested: { url: string; headers: Record<string, string> }[] = [];
  const dialogs: string[] = [];
  const pageErrors: string[] = [];

  let setup: Promise<void>;
  beforeAll(() => {
    setup = (async () => {
      browser = await launchChromium();
      mock = await listen({
        port: 0,
        controlToken: TOKEN,
        primaryKeys: KEYS,
        sizes: { workspaces: 8, rules: 2 },
        clock: () => Date.UTC(2026, 0, 15, 12, 0, 0),
      });
      const context = await browser.newContext({ viewport: { width: 1400, height: 960 } });
      page = await context.newPage();
      page.on('request', (request) => requested.push({ url: request.url(), headers: request.headers() }));
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      recordPageErrors(page, pageErrors);
    })();
    setup.catch(() => {}); // awaited (and reported) by each test
  });

  afterAll(async () => {
    await setup?.catch(() => {});
    await browser?.close();
    await mock?.close();
  });

  it('shows a request as it happens, its body as text, and never puts the token in a URL', async () => {
    await setup;
    const server = mock as RunningMockServer;
    await page.goto(`${server.url}/__mock/live`);

    // The page's parts.
    for (const id of [
      'token',
      'connect',
      'status',
      'endpoint-filter',
      'session-filter',
      'clock',
      'requests',
      'deliveries',
      'sessions',
      'detail',
    ]) {
      await expect.poll(() => page.getByTestId(id).count()).toBe(1);
    }
    expect(await page.getByTestId('token').getAttribute('type')).toBe('password');
    // Without the token, the feed refuses and the page says so.
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('control token');

    await page.getByTestId('token').fill(TOKEN);
    await page.getByTestId('connect').click();
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('connected');
    expect(await page.getByTestId('token').inputValue()).toBe('');

    // A session, and requests from the test: a login and a search holding a script.
    const session = (await server.control.createSession()) as { id: string };
    const login = await fetch(`${server.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(KEYS),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const search = await fetch(`${server.url}/v2/workspaces/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ searchValue: XSS }),
    });
    expect(search.status).toBe(200);

    const rows = page.getByTestId('request-row');
    const searchRow = rows.filter({ hasText: 'workspaces.search' });
    await expect.poll(() => searchRow.count(), { timeout: 10_000 }).toBe(1);
    // The feed's refused poll before the token (403, journalled), the login and the search (and the
    // browser's own GET /favicon.ico, 404, when it asked for one).
    const total = await rows.count();
    const shown = await rows.locator('td:nth-child(2)').allTextContents();
    expect(shown.filter((text) => text !== 'GET /favicon.ico')).toEqual([
      'POST /v2/workspaces/search',
      'POST /v2/login',
      'GET /__mock/live/feed',
    ]);
    expect(await rows.filter({ hasText: '/__mock/live/feed' }).locator('td').nth(4).textContent()).toBe(
      '403',
    );
    const cells = await searchRow.locator('td').allTextContents();
    expect(cells[1]).toBe('POST /v2/workspaces/search');
    expect(cells[2]).toBe('workspaces.search');
    expect(cells[3]).toBe(server.core.accounts()[0]?.id);
    expect(cells[4]).toBe('200');
    expect(await rows.filter({ hasText: 'auth.login' }).locator('td').nth(4).textContent()).toBe('200');
    await expect
      .poll(() => page.getByTestId('session-row').allTextContents())
      .toEqual([expect.stringContaining(session.id)]);
    expect(await page.getByTestId('clock').textContent()).toBe('2026-01-15T12:00:00.000Z');

    // Its body, as the journal keeps it, shown as text: the script's characters, no element, no dialog.
    await searchRow.click();
    const detail = (await page.getByTestId('detail').textContent()) ?? '';
    expect(detail).toContain('"searchValue": "<script>alert(1)</script>"');
    expect(detail).toContain('"authorization": "[redacted]"');
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('script:not([src])').count()).toBe(0);
    expect(await page.locator('#detail script, #requests script').count()).toBe(0);
    // The login row's body: the key pair redacted.
    await rows.filter({ hasText: 'auth.login' }).click();
    const loginDetail = (await page.getByTestId('detail').textContent()) ?? '';
    expect(loginDetail).toContain('"secretKey": "[redacted]"');
    expect(loginDetail).not.toContain(KEYS.secretKey);

    // The endpoint filter: only the searches.
    await page.getByTestId('endpoint-filter').selectOption('workspaces.search');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByTestId('endpoint-filter').selectOption('');
    await expect.poll(() => rows.count()).toBe(total);

    // The screenshot the docs show, with the search's body open.
    await searchRow.click();
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(readFileSync(SCREENSHOT).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    if (process.env.BROWSER_SCREENSHOT) copyFileSync(SCREENSHOT, process.env.BROWSER_SCREENSHOT);

    // The session filter: the session's own journal (empty), then back.
    await page.getByTestId('session-filter').selectOption(session.id);
    await expect.poll(() => page.getByTestId('status').textContent()).toContain(`session ${session.id}`);
    expect(await rows.count()).toBe(0);
    await page.getByTestId('session-filter').selectOption('');
    await expect.poll(() => rows.count()).toBe(total);

    // Nothing ran from the body; the token went only in a header.
    expect(dialogs).toEqual([]);
    // The feed's 403 before the token was entered is the only failed load (and the absent favicon's 404).
    expect(pageErrors.filter((e) => !/status of (403|404)/.test(e))).toEqual([]);
    const feedCalls = requested.filter((r) => r.url.includes('/__mock/live/feed'));
    expect(feedCalls.length).toBeGreaterThan(2);
    for (const { url } of requested) {
      expect(url).not.toContain(TOKEN);
      expect(decodeURIComponent(url)).not.toContain(TOKEN);
    }
    expect(feedCalls.some((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(feedCalls.some((r) => r.headers['x-iacm-mock-session'] === session.id)).toBe(true);
    // The token is nowhere in the page either.
    expect(await page.content()).not.toContain(TOKEN);
  });
});
