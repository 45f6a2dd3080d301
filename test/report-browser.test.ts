/**
 * The reports in a real browser. Runs the scenarios of three state-table rows against the
 * embedded reference with three faults of different services switched on (REFERENCE_FAULTS: an
 * organization merge that unifies nothing, a person deactivation that still matches, a provider
 * restore with no effect), builds the single-file Allure report (`npm run report:allure`), and
 * opens both from disk in the system Chromium (headless, offline, fresh profile):
 * - report.html lists the failing checks first (every one of them), each service's state diagram
 *   draws the faulty transition in the failure colour, and the filter hides passing checks;
 * - the Allure report opens from disk (no server), shows the failures as Failed, none as Broken,
 *   under the tree service → area → operation.
 * Neither page asks for anything but the file itself (the page is offline; a request elsewhere
 * would tell a third party that the report was opened).
 * Screenshots go to the run folder (reports/self-test/<run>/). Skipped with the reason when
 * /usr/bin/chromium is absent (`.ci/run` installs Debian's chromium).
 */
import { allureReportName } from '../report/allure-run.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTCOME_COLOURS } from '../report/palette.js';
import { edgeId } from '../report/state-diagram.js';
import type { Summary } from '../report/summary.js';
import { CHROMIUM, chromiumAvailable, openInChromium, openRendered } from './support/browser.js';
import { runCli } from './support/cli.js';
import { runSuite } from './support/run-suite.js';

/** Fault → the transition it breaks (reference/faults): service, operation, the edge's from-state. */
const FAULTS = [
  { fault: 'merge-no-unify', service: 'organization', operation: 'mergeIdentities', from: 'active' },
  { fault: 'person-deactivate-still-matches', service: 'person', operation: 'deactivateSourceWs', from: 'active' },
  { fault: 'provider-restore-no-effect', service: 'provider', operation: 'restoreSource', from: 'soft-deleted' },
];
const FILES = [
  'scenarios/organization/merge-link.test.ts',
  'scenarios/person/lifecycle.test.ts',
  'scenarios/provider/lifecycle.test.ts',
];
const available = chromiumAvailable();

describe.skipIf(!available)(
  available ? 'the reports in Chromium' : `the reports in Chromium (skipped: ${CHROMIUM} not installed)`,
  () => {
    let folder: string;
    let summary: Summary;

    beforeAll(async () => {
      // Its own folder under reports/, so the screenshots stay but the user's reports/latest is untouched.
      const reportDir = join('reports', 'self-test');
      const r = await runSuite(FILES, {
        CONFORMANCE_REPORT_DIR: reportDir,
        REFERENCE_FAULTS: FAULTS.map((f) => f.fault).join(','),
      });
      folder = join(reportDir, r.runId);
      expect(
        existsSync(join(folder, 'report.html')),
        `report.html written (exit ${r.code}; ${r.stderr.slice(-500)})`,
      ).toBe(true);
      summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as Summary;
      const allure = runCli('report-allure', [folder]);
      expect(allure.code, allure.stderr).toBe(0);
    }, 300000);

    it('report.html: failures first, faulty transitions in the failure colour, the filter hides passing checks', async () => {
      const failing = summary.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
      for (const f of FAULTS)
        expect(
          failing.some((c) => c.service === f.service),
          `${f.fault} caught`,
        ).toBe(true);
      const opened = await openInChromium(join(folder, 'report.html'));
      try {
        const { page } = opened;
        expect(await page.title()).toContain(`Conformance run ${summary.run.runId}: FAIL`);
        expect(opened.refused, 'requests other than the file').toEqual([]);
        // Failures first: the first section of the page, above every service section, and all of them.
        expect(await page.locator('main > section').first().getAttribute('id')).toBe('failures');
        expect(await page.locator('#failures article.failure').count()).toBe(failing.length);
        const firstFailure = (await page.locator('#failures article.failure').first().boundingBox())!;
        for (const f of FAULTS)
          expect(firstFailure.y).toBeLessThan((await page.locator(`#service-${f.service}`).boundingBox())!.y);
        await page.screenshot({ path: join(folder, 'report-top.png') });

        // Each service's state diagram, with the transition its fault breaks drawn in the failure colour.
        for (const f of FAULTS) {
          expect(await page.locator(`#state-diagram-${f.service} svg`).isVisible(), `${f.service} diagram`).toBe(true);
          const edge = page.locator(`[id="${edgeId(f.service, f.operation, f.from)}"]`);
          expect(await edge.getAttribute('class')).toContain('fail');
          expect(
            (await edge.locator('path').first().getAttribute('stroke'))?.toLowerCase(),
            `${f.service} ${f.operation}`,
          ).toBe(OUTCOME_COLOURS.fail);
        }
        const passingEdge = page.locator(`[id="${edgeId('organization', 'softDeleteSource', 'active')}"] path`).first();
        expect(await passingEdge.getAttribute('stroke')).not.toBe(OUTCOME_COLOURS.fail);

        // The filter (the page's one script): unticking "pass" hides passing checks and requirements, not failures.
        const passingRow = page.locator('#requirements-organization details.passing tr[data-verdict="pass"]').first();
        await page.locator('#requirements-organization details.passing > summary').click();
        expect(await passingRow.isVisible()).toBe(true);
        const passingCheck = page.locator('#requirements-person li[data-verdict="pass"]').first();
        const hadPassingCheck = (await passingCheck.count()) > 0 && (await passingCheck.isVisible());
        await page.locator('#filter input[name="verdict"][value="pass"]').uncheck();
        expect(await passingRow.isVisible()).toBe(false);
        if (hadPassingCheck) expect(await passingCheck.isVisible()).toBe(false);
        expect(await page.locator('#failures article.failure').first().isVisible()).toBe(true);
        await page.locator('#filter input[name="service"][value="organization"]').uncheck();
        expect(await page.locator('#service-organization').isVisible()).toBe(false);
        expect(await page.locator('#failures article.failure[data-service="organization"]').first().isVisible()).toBe(
          false,
        );
        await page.locator('#filter input[name="service"][value="organization"]').check();
        await page.locator('#filter input[name="verdict"][value="pass"]').check();

        const height = await page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document
              .documentElement.scrollHeight,
        );
        console.log(`report.html height: ${height} px`);
        await page.locator('#failures article.failure').first().scrollIntoViewIfNeeded();
        await page.locator('#failures article.failure details.exchange.failing > summary').first().click();
        await page
          .locator('#failures article.failure')
          .first()
          .screenshot({ path: join(folder, 'report-failure.png') });
      } finally {
        await opened.close();
      }
    });

    it('the single-file Allure report opens from disk and shows the failures as Failed, none as Broken', async () => {
      const fails = summary.checks.filter((c) => c.verdict === 'fail').length;
      const errors = summary.checks.filter((c) => c.verdict === 'error').length;
      expect(fails).toBeGreaterThan(0);
      // The single-file report unpacks and renders itself in the page (about 2 s).
      const opened = await openRendered(join(folder, 'allure-report', 'index.html'), '[data-testid="tab-failed"]');
      try {
        const { page } = opened;
        expect(await page.title()).toBe(allureReportName(summary));
        expect(await page.title()).toMatch(/: FAIL \(exit code 1\)$/);
        expect(opened.refused, 'requests other than the file (report/allure-offline.ts)').toEqual([]);
        expect(await page.locator('[data-testid="tab-failed"]').textContent()).toMatch(
          new RegExp(`Failed\\s*${fails}\\b`),
        );
        expect(await page.locator('[data-testid="tab-broken"]').count()).toBe(errors ? 1 : 0);
        expect(await page.locator('[data-testid="tree-leaf-status-broken"]').count()).toBe(0);
        // The tree: service → area → operation, e.g. organization → merge-link → mergeIdentities.
        const sections = await page.locator('[data-testid="tree-section-title"]').allInnerTexts();
        for (const name of ['organization', 'person', 'provider', 'merge-link', 'lifecycle', 'mergeIdentities'])
          expect(sections.map((s) => s.trim())).toContain(name);
        await page.screenshot({ path: join(folder, 'allure-top.png') });
      } finally {
        await opened.close();
      }
    }, 240000);
  },
);
