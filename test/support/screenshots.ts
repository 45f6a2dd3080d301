/**
 * `npx tsx test/support/screenshots.ts <run folder>`: takes the README's and docs/reports.md's
 * screenshots of a run folder in the system Chromium (test/support/browser.ts): report.html's first
 * screen, its first failure with the failing exchange open, and the single-file Allure report
 * (built first with `npm run report:allure -- <run folder>`) on its first screen and on its first
 * failure. Writes them to docs/screenshots/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM, chromiumAvailable, openInChromium } from './browser.js';

const folder = process.argv[2];
if (!folder || !existsSync(join(folder, 'report.html'))) {
  console.error('screenshots: expected a run folder holding report.html, e.g. reports/latest');
  process.exit(2);
}
if (!chromiumAvailable()) {
  console.error(`screenshots: ${CHROMIUM} not found (set CONFORMANCE_CHROMIUM, or install Debian's chromium)`);
  process.exit(2);
}
const out = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');

const report = await openInChromium(join(folder, 'report.html'));
try {
  await report.page.screenshot({ path: join(out, 'report-top.png') });
  const first = report.page.locator('#failures article.failure').first();
  await first.locator('details.exchange.failing > summary').first().click();
  await first.screenshot({ path: join(out, 'report-failure.png') });
} finally {
  await report.close();
}

execFileSync(process.execPath, ['--import', 'tsx', 'run/cli/report-allure.ts', folder], { stdio: 'inherit' });
const allure = await openInChromium(join(folder, 'allure-report', 'index.html'));
try {
  const { page } = allure;
  await page.locator('[data-testid="tab-failed"]').waitFor({ timeout: 120000 });
  await page.screenshot({ path: join(out, 'allure-top.png') });
  await page.locator('[data-testid="tree-leaf-status-failed"]').first().click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(out, 'allure-failure.png') });
} finally {
  await allure.close();
}
console.log(`wrote report-top.png, report-failure.png, allure-top.png, allure-failure.png to ${out}`);
