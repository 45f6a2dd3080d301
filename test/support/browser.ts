/**
 * Opens an HTML file in the system Chromium (playwright-core, no browser download) headless,
 * with a fresh profile and no background traffic. Used by the report's browser self-test.
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
  // Offline: any request other than the file itself is a defect of the report.
  await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await page.goto(pathToFileURL(file).href);
  return {
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type { Browser };
