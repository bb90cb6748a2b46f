/**
 * Builds and serves the dashboard, and launches a system Chromium, for `tests/browser/dashboard.test.ts`
 * (and for anyone who wants to drive the dashboard from a script). It lives here because `vite` and
 * `playwright-core` are dependencies of the examples package, so they resolve from this folder.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, preview } from 'vite';

export type { Browser, Page } from 'playwright-core';

const configFile = fileURLToPath(new URL('./vite.config.ts', import.meta.url));

/** The Chromium the test drives: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Flags for a quiet, headless run in a container (no sandbox, no GPU, no background traffic). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A built dashboard served by `vite preview` on a free port of 127.0.0.1. */
export interface ServedDashboard {
  /** The page's URL, such as `http://127.0.0.1:41234/`. */
  url: string;
  close(): Promise<void>;
}

/** Builds the dashboard into `outDir` (production build, MSW worker script included). */
export async function buildDashboard(outDir: string): Promise<void> {
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/** Serves a build made by {@link buildDashboard} with `vite preview` on a free port. */
export async function previewDashboard(outDir: string): Promise<ServedDashboard> {
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  return { url, close: () => server.close() };
}

/** Launches the system Chromium; a clear error when it is not installed (no browser is downloaded). */
export async function launchChromium(executablePath = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}: install it (Debian/Ubuntu: apt-get install chromium) ` +
        'or set CHROMIUM_PATH. This test never downloads a browser.',
    );
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/** Records a page's uncaught errors and `console.error` lines into `errors`, for a test to assert none. */
export function recordPageErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
}
