/**
 * Run facts for Allure: `environment.properties` (target per service, profile, seed, run id,
 * shards) and `executor.json` (the suite as executor, the run as build, the report's name) in the
 * run's allure-results/, and the names `npm run report:allure` gives the report: its title
 * "Conformance <deployment>: run <run id>" and the history file it shares with the earlier runs
 * of the same deployment (<report dir>/allure-history/<deployment>.jsonl), so trends show.
 *
 * The deployment is the known-failures list's `deployment` when one is set, else "embedded
 * reference", else the hosts of the configured targets.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Summary } from './summary.js';
import { safeRun } from './view.js';

export function deploymentName(s: Pick<Summary, 'gate' | 'run'>): string {
  if (s.gate?.deployment) return s.gate.deployment;
  if (s.run.embedded) return 'embedded reference';
  const hosts = s.run.targets.flatMap((t) => {
    try {
      return t.baseUrl ? [new URL(t.baseUrl).host] : [];
    } catch {
      return [];
    }
  });
  return [...new Set(hosts)].join(' + ') || 'unnamed deployment';
}

export const reportTitle = (s: Pick<Summary, 'gate' | 'run'>) => `Conformance ${deploymentName(s)}: run ${s.run.runId}`;

/** History file of a deployment's Allure reports, under the report directory. */
export const historyFile = (reportDir: string, s: Pick<Summary, 'gate' | 'run'>) =>
  join(reportDir, 'allure-history', `${deploymentName(s).replace(/[^A-Za-z0-9.-]+/g, '_')}.jsonl`);

/** `key=value` lines of a .properties file (backslash, line breaks, = and : escaped). */
const properties = (entries: Array<[string, string]>) =>
  entries
    .map(
      ([k, v]) =>
        `${k}=${v
          .replace(/\\/g, '\\\\')
          .replace(/\n/g, '\\n')
          .replace(/[=:]/g, (c) => `\\${c}`)}`,
    )
    .join('\n');

/** Writes environment.properties and executor.json into `<folder>/allure-results` (when it exists). */
export function writeAllureRunInfo(folder: string, s: Summary): void {
  const dir = join(folder, 'allure-results');
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  const run = safeRun(s);
  const entries: Array<[string, string]> = [
    ['deployment', deploymentName(s)],
    ['run.id', run.runId],
    ['seed', String(run.seed)],
    ...run.targets.map((t): [string, string] => [
      `target.${t.service}`,
      t.status === 'not configured' ? 'not configured' : `${t.status} ${t.baseUrl ?? ''}${t.servicePath ?? ''} (${t.auth ?? '-'})`,
    ]),
    ['profile', JSON.stringify(run.profile)],
    ...(run.faults?.length ? [['reference.faults', run.faults.join(',')] as [string, string]] : []),
    ...(run.shards?.length ? [['shards', run.shards.map((x) => x.runId).join(',')] as [string, string]] : []),
  ];
  writeFileSync(join(dir, 'environment.properties'), `${properties(entries)}\n`);
  writeFileSync(
    join(dir, 'executor.json'),
    JSON.stringify(
      {
        name: 'identity-conformance',
        type: 'npm run conformance',
        buildName: run.runId,
        reportName: reportTitle(s),
        reportUrl: '../report.html',
      },
      null,
      2,
    ),
  );
}
