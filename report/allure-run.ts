/**
 * Run facts for Allure, so that its report says what the run's own reports say: in the run's allure-results/,
 * `environment.properties` (verdict, exit code, target per service, profile, seed, run id, shards), `executor.json`
 * (the suite as executor, the run as build, the report's name), the gate as a global error when the run does not pass
 * (`conformance-gate-globals.json`: Allure 3 shows it on the overview), and on each failing check's result how the gate
 * treats it (labels `gate`, `tag` and `severity`: gating, EXPECT only, known, pending, could not judge), so that an
 * EXPECT-only failure no longer looks like a gating one. For `npm run report:allure`: the report's title "Conformance
 * <deployment>: run <run id>: <verdict>", the variables its overview shows (verdict, exit code, target, the gate in
 * counts) and the history file it shares with the earlier runs of the same deployment (<report
 * dir>/allure-history/<deployment>.jsonl).
 *
 * The deployment is the known-failures list's `deployment` when one is set, else "embedded reference", else the hosts
 * of the configured targets.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GateClass, gateClass } from './failure-order.js';
import { gateSentence, headline } from './headline.js';
import { exitCodeOf } from './outcome.js';
import type { Summary } from './summary.js';
import { authText, targetStatement } from './target.js';
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

/**
 * The run's verdict with its exit code, as the headline gives it (e.g. "FAIL (exit code 1)", "PASS (2 known failures),
 * exit code 0").
 */
export function verdictText(s: Summary): string {
  const h = headline(s);
  return /exit code \d+/.test(h)
    ? h
    : /\)$/.test(h)
      ? `${h}, exit code ${exitCodeOf(s)}`
      : `${h} (exit code ${exitCodeOf(s)})`;
}

/** The title `npm run report:allure` gives the report: the deployment, the run, and its verdict. */
export const allureReportName = (s: Summary) => `${reportTitle(s)}: ${verdictText(s)}`;

/** The gate in counts, as the overview lists it. */
function gateCounts(s: Summary): string {
  const g = s.gate;
  return [
    `${g.gating.length} gating`,
    `${g.expectOnly.length} EXPECT-only (not gating)`,
    `${new Set(g.expected.map((x) => x.checkId)).size} known`,
    `${g.pending.length} pending`,
    `${g.incomplete?.length ?? 0} could not judge`,
    ...(g.expired?.length ? [`${g.expired.length} expired known-failure entries`] : []),
  ].join(', ');
}

/** What the Allure overview lists of the run (allurerc `variables`): verdict, exit code, target, the gate in counts. */
export function allureVariables(s: Summary): Record<string, string> {
  return {
    verdict: headline(s),
    'exit code': String(exitCodeOf(s)),
    target: targetStatement(safeRun(s)).replace(/^target: /, ''),
    gate: gateCounts(s),
    ...(s.gate.knownFailuresFile ? { 'known failures': s.gate.knownFailuresFile } : {}),
    run: `${s.run.runId} (seed ${s.run.seed})`,
  };
}

/** How a failing check's Allure result is marked, by how the gate treats it. */
const GATE_LABELS: Record<GateClass, { tag: string; severity: string }> = {
  gating: { tag: 'gating', severity: 'critical' },
  'expect-only': { tag: 'EXPECT only, not gating', severity: 'minor' },
  known: { tag: 'known failure, not gating', severity: 'minor' },
  pending: { tag: 'pending, not gating', severity: 'minor' },
  'could-not-judge': { tag: 'could not judge', severity: 'normal' },
};
const GATE_LABEL_NAMES = new Set(['gate', 'tag', 'severity']);

/**
 * Adds to each failing or broken check result in `dir` how the gate treats it (label `gate`, and `tag` and `severity`
 * that Allure shows and filters by); a result's earlier marks are replaced.
 */
function markGateClasses(dir: string, s: Summary): void {
  const byId = new Map(s.checks.map((c) => [c.checkId, c]));
  for (const file of readdirSync(dir).filter((f) => f.endsWith('-result.json'))) {
    const path = join(dir, file);
    let result: { status?: string; labels?: Array<{ name: string; value: string }> };
    try {
      result = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      continue;
    }
    const checkId = result.labels?.find((l) => l.name === 'checkId')?.value;
    const check = checkId ? byId.get(checkId) : undefined;
    if (!check || (check.verdict !== 'fail' && check.verdict !== 'error')) continue;
    const cls = check.couldNotJudge ? 'could-not-judge' : gateClass(check.checkId, s.gate);
    const mark = GATE_LABELS[cls];
    result.labels = [
      ...(result.labels ?? []).filter((l) => !GATE_LABEL_NAMES.has(l.name)),
      { name: 'gate', value: cls },
      { name: 'tag', value: mark.tag },
      { name: 'severity', value: mark.severity },
    ];
    writeFileSync(path, JSON.stringify(result));
  }
}

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
    ['verdict', headline(s)],
    ['exit.code', String(exitCodeOf(s))],
    ['target', targetStatement(run).replace(/^target: /, '')],
    ['deployment', deploymentName(s)],
    ['run.id', run.runId],
    ['seed', String(run.seed)],
    ...run.targets.map((t): [string, string] => [
      `target.${t.service}`,
      t.status === 'not configured'
        ? 'not configured'
        : `${t.status} ${t.baseUrl ?? ''}${t.servicePath ?? ''} (${authText(t)})`,
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
        reportName: allureReportName(s),
        reportUrl: '../report.html',
      },
      null,
      2,
    ),
  );
  // A run that does not pass says so on the overview, as a global error with the gate's finding.
  const code = exitCodeOf(s);
  const globals = join(dir, 'conformance-gate-globals.json');
  const gating = s.gate.gating;
  writeFileSync(
    globals,
    JSON.stringify({
      errors: code
        ? [
            {
              message: `Conformance run ${run.runId}: ${verdictText(s)}`,
              trace: [
                gateSentence(s),
                targetStatement(run),
                ...(gating.length ? ['Checks failing the gate:', ...gating.slice(0, 50).map((id) => `  ${id}`)] : []),
                ...(gating.length > 50 ? [`  ... and ${gating.length - 50} more (report.html)`] : []),
              ].join('\n'),
              timestamp: Date.parse(s.run.finishedAt) || Date.now(),
            },
          ]
        : [],
      attachments: [],
    }),
  );
  markGateClasses(dir, s);
}
