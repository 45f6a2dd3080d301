/**
 * The reporters of a conformance run (vitest.config.ts): the progress display (the run's one live display: vitest's own
 * console reporter is left out), the conformance reporter (results.json, selection.json), the file-end reporter
 * (records of a finished file are removed while the run goes on: run/vitest/early-removal.ts), Allure results with requirement
 * links (written as each file ends: report/allure-reporter.ts), and on a shard (HANDOFF.shard, from `npm run
 * conformance -- --shard=i/n`) a vitest blob report for the merge step. When merging (HANDOFF.merge) only the
 * conformance reporter runs: Allure results are copied from the shards instead. It lives in run/ because it names
 * reporters of report/ and run/ (vitest loads each by its path, relative to the project root).
 */
import { join } from 'node:path';
import { type Env, HANDOFF } from '../../harness/handoff.js';

/**
 * @param requirementUrl where a requirement link in Allure points (Settings.requirementUrl, `%s` = requirement ID)
 */
export function conformanceReporters(reportDir: string, runId: string, requirementUrl: string, env?: Env) {
  const folder = join(reportDir, runId);
  if (HANDOFF.merge.read(env)) return ['./report/reporter.ts'];
  const shard = HANDOFF.shard.read(env);
  return [
    './report/progress.ts',
    './report/reporter.ts',
    './run/vitest/file-end-reporter.ts',
    [
      './report/allure-reporter.ts',
      {
        resultsDir: join(folder, 'allure-results'),
        links: { requirement: { urlTemplate: requirementUrl, nameTemplate: '%s' } },
      },
    ],
    ...(shard ? [['blob', { outputFile: join(folder, 'blob', `blob-${shard.replace('/', '-')}.json`) }]] : []),
  ] as Array<string | [string, Record<string, unknown>]>;
}
