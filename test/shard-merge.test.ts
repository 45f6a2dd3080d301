/**
 * Sharding: the organization scenarios run unsharded and as three shards (`--shard=i/3`, each its
 * own run id and namespace, the same seed); `npm run report:merge` joins the shards (vitest blob
 * reports replayed through the conformance reporter, Allure results and exchanges copied). The
 * merged report has the same checks with the same outcomes as the unsharded run. In `npm run test:full`
 * only: `npm test` runs three shards and their merge as the CI example does (test/ci-examples.test.ts).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../report/summary.js';
import { runCli } from './support/cli.js';
import { type SuiteRun, runSuite } from './support/run-suite.js';
import { FULL_TIER } from './support/tier.js';

const SCOPE = ['scenarios/organization'];
let whole: SuiteRun;
let shards: SuiteRun[];

const outcomes = (s: Summary) => Object.fromEntries(s.checks.map((c) => [c.checkId, c.verdict]));

describe.runIf(FULL_TIER)('three shards merged', () => {
  beforeAll(async () => {
    whole = await runSuite(SCOPE);
    shards = [];
    for (const i of [1, 2, 3]) shards.push(await runSuite([...SCOPE, `--shard=${i}/3`]));
  }, 400000);

  it('each shard has its own run id, namespace and a blob report', () => {
    const ids = shards.map((s) => `${s.runId}-s${shards.indexOf(s) + 1}of3`);
    for (const [i, s] of shards.entries()) {
      const folder = join(s.reportDir, ids[i]!);
      expect(existsSync(join(folder, 'summary.json')), `${folder} (${s.stderr.slice(-400)})`).toBe(true);
      expect(readdirSync(join(folder, 'blob'))).toEqual([`blob-${i + 1}-3.json`]);
      const ledger = readFileSync(join(folder, 'ledger.jsonl'), 'utf8');
      if (ledger.trim()) expect(ledger).toContain(`cf-${ids[i]}-`);
    }
    const counts = shards.map(
      (s, i) => (JSON.parse(readFileSync(join(s.reportDir, ids[i]!, 'summary.json'), 'utf8')) as Summary).totals.checks,
    );
    expect(counts.every((n) => n > 0 && n < whole.summary!.totals.checks)).toBe(true);
  });

  it('gives the same checks and outcomes as one unsharded run', () => {
    const out = shards[0]!.reportDir;
    const folders = shards.map((s, i) => join(s.reportDir, `${s.runId}-s${i + 1}of3`));
    const r = runCli('report-merge', ['--out', out, '--run-id', 'merged-run', ...folders]);
    const merged = JSON.parse(readFileSync(join(out, 'merged-run', 'summary.json'), 'utf8')) as Summary;
    expect(outcomes(merged)).toEqual(outcomes(whole.summary!));
    expect(r.code, r.stderr).toBe(whole.code);
    expect(merged.requirements.map((x) => [x.id, x.outcome])).toEqual(
      whole.summary!.requirements.map((x) => [x.id, x.outcome]),
    );
    expect(merged.run.shards!.map((s) => s.shard)).toEqual(['1/3', '2/3', '3/3']);
    for (const f of ['report.html', 'summary.md', 'junit.xml'])
      expect(existsSync(join(out, 'merged-run', f)), f).toBe(true);
    const allure = (dir: string) =>
      readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json')).length;
    expect(allure(join(out, 'merged-run'))).toBe(allure(join(whole.reportDir, whole.runId)));
    for (const c of merged.checks)
      if (c.exchangesFile) expect(existsSync(join(out, 'merged-run', c.exchangesFile)), c.exchangesFile).toBe(true);
  });
});
