/**
 * The HTML report in a real browser: runs the organization envelope checks against the embedded
 * reference (with one reference fault, so a failing check with its exchange and curl replay is on
 * the page), opens reports/<run>/report.html in the system Chromium (headless, offline, fresh
 * profile), checks the key sections render and saves reports/self-test/<run>/report.png.
 * Skipped with the reason when /usr/bin/chromium is absent (`.ci/run` installs Debian's chromium).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../report/summary.js';
import { CHROMIUM, chromiumAvailable, openInChromium } from './support/browser.js';
import { runSuite } from './support/run-suite.js';

const FAULT = 'failure-without-reason'; // breaks ORG-ERR-CARRIED (reference/faults/catalogue.ts)

describe.skipIf(!chromiumAvailable())(chromiumAvailable() ? 'report.html in Chromium' : `report.html in Chromium (skipped: ${CHROMIUM} not installed)`, () => {
  it('renders the key sections offline and leaves a screenshot in the run folder', async () => {
    // Its own folder under reports/, so the screenshot stays but the user's reports/latest is untouched.
    const reportDir = join('reports', 'self-test');
    const r = await runSuite(['scenarios/organization/envelope.test.ts'], { CONFORMANCE_REPORT_DIR: reportDir, REFERENCE_FAULTS: FAULT });
    const folder = join(reportDir, r.runId);
    const html = join(folder, 'report.html');
    expect(existsSync(html), `${html} written (exit ${r.code}; ${r.stderr.slice(-500)})`).toBe(true);
    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as Summary;

    const opened = await openInChromium(html);
    try {
      const { page } = opened;
      expect(await page.title()).toContain(`Conformance run ${r.runId}`);
      for (const id of ['run', 'gate', 'charts', 'failures', 'coverage', 'requirements', 'latency', 'scores']) expect(await page.locator(`#${id}`).isVisible(), `#${id} visible`).toBe(true);
      expect(await page.locator('#charts svg').count()).toBe(3);
      const box = await page.locator('#chart-latency svg').boundingBox();
      expect(box!.width).toBeGreaterThan(200);
      const failing = summary.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error').length;
      expect(await page.locator('#failures .failure').count()).toBe(failing);
      if (failing) expect(await page.locator('#failures .failure .curl').first().textContent()).toContain('$ORG_TOKEN');
      await page.screenshot({ path: join(folder, 'report.png'), fullPage: true });
    } finally {
      await opened.close();
    }
    expect(existsSync(join(folder, 'report.png'))).toBe(true);
    console.log(`screenshot: ${join(folder, 'report.png')}`);
  });
});
