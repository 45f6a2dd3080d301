/**
 * Opens an HTML file in the system Chromium (playwright-core, no browser download) headless,
 * with a fresh profile and no background traffic. Used by the report's browser self-test.
 * The page is offline: every request other than a file: or data: URL is refused and listed in
 * `events`, with the page's errors, console errors and a renderer crash, so that a page that
 * never renders says why.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CONFORMANCE_CHROMIUM || '/usr/bin/chromium';
export const chromiumAvailable = () => existsSync(CHROMIUM);

export interface OpenedPage {
  page: Awaited<ReturnType<BrowserContext['newPage']>>;
  /** What the page did that a report should not: refused requests, errors, a crash (one line each). */
  events: string[];
  /** The URLs the page asked for other than file: and data: (all refused). */
  refused: string[];
  close: () => Promise<void>;
}

export async function openInChromium(file: string): Promise<OpenedPage> {
  const profile = mkdtempSync(join(tmpdir(), 'cf-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const events: string[] = [];
  const refused: string[] = [];
  const opened = performance.now();
  const at = () => `${(performance.now() - opened) | 0} ms`;
  page.on('pageerror', (e) => events.push(`${at()} page error: ${String(e).slice(0, 300)}`));
  page.on('console', (m) => {
    if (m.type() === 'error') events.push(`${at()} console error: ${m.text().slice(0, 300)}`);
  });
  page.on('crash', () => events.push(`${at()} renderer crashed`));
  page.on('load', () => events.push(`${at()} load`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    refused.push(url);
    events.push(`${at()} refused ${url.slice(0, 120)}`);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  return {
    page,
    events,
    refused,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `file` and waits until `selector` is visible, in a fresh browser each attempt. A page that
 * has not rendered within `timeoutMs` is closed with what it did (events, text) kept, and opened
 * again; the last attempt's failure throws with every attempt's account. An attempt that failed
 * before one that rendered is printed as a warning. Chromium on a machine whose two cores are
 * busy with other tests once left the single-file Allure report unrendered for over two minutes,
 * where it renders in about 2 s: a rendering hiccup of the browser is not a defect of the report,
 * a report that never renders still is.
 */
export async function openRendered(
  file: string,
  selector: string,
  attempts = 2,
  timeoutMs = 45000,
): Promise<OpenedPage> {
  const accounts: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const opened = await openInChromium(file);
    const rendered = await opened.page
      .locator(selector)
      .waitFor({ timeout: timeoutMs })
      .then(() => null)
      .catch((e: unknown) => String(e).split('\n')[0]);
    if (rendered === null) {
      if (accounts.length) console.warn(`${file} rendered at attempt ${attempt}; before:\n${accounts.join('\n')}`);
      return opened;
    }
    const text = await opened.page
      .locator('body')
      .textContent({ timeout: 5000 })
      .catch(() => '(no body)');
    accounts.push(
      `attempt ${attempt}: ${rendered}\n  page events: ${opened.events.join('; ') || 'none'}\n  page text: ${(text ?? '').replace(/\s+/g, ' ').slice(0, 300)}`,
    );
    await opened.close();
    if (attempt >= attempts) throw new Error(`${file} did not render ${selector}:\n${accounts.join('\n')}`);
  }
}

export type { Browser };
