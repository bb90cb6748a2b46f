/**
 * The browser dashboard example (examples/browser-dashboard) in a real Chromium: a production Vite
 * build served by `vite preview`, the mock running in MSW's service worker, the SDK reading it.
 *
 * Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH); without it the test fails, it does not skip.
 * BROWSER_SCREENSHOT=<path> keeps a copy of the screenshot.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  buildDashboard,
  launchChromium,
  type Page,
  previewDashboard,
  recordPageErrors,
  type ServedDashboard,
} from '../../examples/browser-dashboard/harness.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('browser dashboard (Vite build + MSW service worker + SDK, in Chromium)', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'iacm-browser-dashboard-'));
  const outDir = join(workDir, 'dist');
  const screenshot = join(workDir, 'dashboard.png');
  const pageErrors: string[] = [];
  let served: ServedDashboard | undefined;
  let browser: Browser | undefined;
  let page: Page;

  /** Set up once; a failure (no Chromium, a broken build) fails each test with its message, not a skip. */
  let setup: Promise<void>;
  beforeAll(() => {
    setup = (async () => {
      // Launch first: a missing Chromium fails at once with a clear message, before the build.
      browser = await launchChromium();
      await buildDashboard(outDir);
      served = await previewDashboard(outDir);
      const context = await browser.newContext({ viewport: { width: 1360, height: 1000 } });
      page = await context.newPage();
      recordPageErrors(page, pageErrors);
      page.on('response', (response) => {
        if (response.status() >= 400) pageErrors.push(`HTTP ${response.status()} ${response.url()}`);
      });
    })();
    setup.catch(() => {}); // awaited (and reported) by each test
  });

  afterAll(async () => {
    await setup?.catch(() => {});
    await browser?.close();
    await served?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('loads the mock, logs in and renders workspaces, status counts and events', async () => {
    await setup;
    await page.goto(served?.url ?? 'about:blank');
    await page.waitForFunction(() => document.body.dataset.ready !== 'false', undefined, { timeout: 30_000 });
    const ready = await page.evaluate(() => document.body.dataset.ready);
    const status = await page.getByTestId('status').textContent();
    expect(ready, `the page reported: ${status}\n${pageErrors.join('\n')}`).toBe('true');

    // Workspaces: the primary account's (120 by default), every row filled in from the mock.
    const rows = page.getByTestId('workspace-row');
    const rowCount = await rows.count();
    expect(rowCount).toBeGreaterThanOrEqual(25);
    expect(Number(await page.getByTestId('workspace-count').textContent())).toBe(rowCount);
    const first = await rows.first().locator('td').allTextContents();
    expect(first).toHaveLength(4);
    for (const cell of first) expect(cell.trim()).not.toBe('');
    const names = await page.getByTestId('workspace-name').allTextContents();
    expect(new Set(names).size).toBe(rowCount);

    // Counts by last run status add up to the workspaces shown, and agree with the table's badges.
    const counts = await page
      .getByTestId('status-count')
      .evaluateAll((items) => items.map((li) => [li.getAttribute('data-status'), Number(li.dataset.count)]));
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.reduce((sum, [, n]) => sum + Number(n), 0)).toBe(rowCount);
    const badges = await page.locator('[data-testid="workspace-status"] .badge').allTextContents();
    for (const [statusName, n] of counts)
      expect(badges.filter((b) => b === statusName)).toHaveLength(Number(n));

    // Events: the latest page, newest first, with the event type facet over the whole account.
    const events = page.getByTestId('event-row');
    expect(await events.count()).toBeGreaterThan(0);
    expect(await events.count()).toBeLessThanOrEqual(25);
    const times = await page
      .locator('[data-testid="event-row"] time')
      .evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime') ?? ''));
    expect([...times].sort().reverse()).toEqual(times);
    const facet = page.locator('[data-testid="facet-value"]:not([data-value=""])');
    expect(await facet.count()).toBeGreaterThan(1);
    const facetTotal = Number(
      await page.locator('[data-testid="facet-value"][data-value=""]').getAttribute('data-count'),
    );
    expect(facetTotal).toBeGreaterThanOrEqual(await events.count());

    await page.screenshot({ path: screenshot });
    const png = readFileSync(screenshot);
    expect(png.length).toBeGreaterThan(10_000);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    if (process.env.BROWSER_SCREENSHOT) copyFileSync(screenshot, process.env.BROWSER_SCREENSHOT);

    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('filters the events by a value of the event type facet', async () => {
    await setup;
    expect(await page.evaluate(() => document.body.dataset.ready), 'the dashboard did not load').toBe('true');
    const value = await page
      .locator('[data-testid="facet-value"]:not([data-value=""])')
      .last()
      .getAttribute('data-value');
    expect(value).toBeTruthy();
    await page.locator(`[data-testid="facet-value"][data-value="${value}"]`).click();
    await page.waitForFunction(
      (v) => {
        const panel = document.querySelector<HTMLElement>('[data-testid="events"]');
        return panel?.dataset.state === 'ready' && panel.dataset.filter === v;
      },
      value,
      { timeout: 30_000 },
    );
    const types = await page.getByTestId('event-type').allTextContents();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set([value]));
    expect(
      await page.locator(`[data-testid="facet-value"][data-value="${value}"]`).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
