/**
 * The files of an evidence bundle checked against one another: each was written from the same run, so each must tell
 * the same story, and a file changed alone (with its digest recomputed) no longer does.
 * - junit.xml: every test case has a check ID, a verdict, and the element its verdict takes (fail: <failure> naming
 *   the requirements it failed; error: <error>; skip and omit: <skipped>); the counts of each verdict are the
 *   manifest's totals.
 * - requirements.csv: each row's checks are test cases of junit.xml that cite its requirement, and every test case
 *   citing a requirement is in its row; each row's outcome is the one its checks' verdicts give
 *   (report/summary.ts outcomeOfChecks), and a row without checks is untestable, uncovered or not run.
 * - the manifest: its exit code is one its verdict can have; a passed certification has no skipped check, no omitted
 *   check but those it lists as not run on shared data, no MUST requirement of its services failing or without a
 *   check that ran, and as many checks run as junit.xml holds for its services; ownership.json names only services
 *   the run targeted.
 * - exchanges.har: every entry belongs to a test case of junit.xml.
 * Source: docs/reports.md, "Evidence bundle".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import type { Verdict } from '../../harness/verdict.js';
import { type RequirementOutcome, outcomeOfChecks } from '../summary.js';
import type { Manifest } from './manifest.js';

interface Case {
  checkId: string;
  service: string;
  verdict: Verdict;
  requirements: string[];
  failedRequirements: string[];
}

const VERDICTS: Verdict[] = ['pass', 'fail', 'error', 'skip', 'omit'];
const NO_CHECK: RequirementOutcome[] = ['untestable', 'uncovered', 'not-run'];
const words = (s: unknown) => (typeof s === 'string' && s.trim() ? s.trim().split(/\s+/) : []);
const list = (xs: string[], max = 3) =>
  `${xs.slice(0, max).join(', ')}${xs.length > max ? ` and ${xs.length - max} more` : ''}`;

/** The test cases of junit.xml, and what is wrong with any of them. */
function junitCases(xml: string, problems: string[]): Case[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property',
  });
  const doc = parser.parse(xml) as { testsuites?: { testsuite?: Array<{ testcase?: Array<Record<string, any>> }> } };
  const cases: Case[] = [];
  for (const suite of doc.testsuites?.testsuite ?? [])
    for (const tc of suite.testcase ?? []) {
      const prop = (n: string) =>
        (tc.properties?.property as Array<{ name: string; value: string }> | undefined)?.find((p) => p.name === n)
          ?.value;
      const c: Case = {
        checkId: prop('checkId') ?? '',
        service: String(tc.classname ?? '').split('.')[0]!,
        verdict: prop('verdict') as Verdict,
        requirements: words(prop('requirements')),
        failedRequirements: words(tc.failure?.type),
      };
      const where = `junit.xml, test case "${tc.name}"`;
      if (!c.checkId) problems.push(`${where}: no checkId property`);
      if (!VERDICTS.includes(c.verdict))
        problems.push(`${where}: verdict ${JSON.stringify(c.verdict)}, no verdict of the suite`);
      const element = 'failure' in tc ? 'fail' : 'error' in tc ? 'error' : 'skipped' in tc ? 'skipped' : 'none';
      const expected =
        c.verdict === 'fail' ? 'fail' : c.verdict === 'error' ? 'error' : c.verdict === 'pass' ? 'none' : 'skipped';
      if (element !== expected)
        problems.push(
          `${where}: verdict ${c.verdict} with ${element === 'none' ? 'no result element' : `<${element === 'fail' ? 'failure' : element}>`}`,
        );
      cases.push(c);
    }
  return cases;
}

/** requirements.csv against the test cases: its rows' checks, and each row's outcome. */
function checkRequirements(rows: Array<Record<string, string>>, cases: Case[], problems: string[]): void {
  const byId = new Map(cases.map((c) => [c.checkId, c]));
  for (const row of rows) {
    const id = row.id ?? '';
    const checks = words(row.checks);
    const missing = checks.filter((k) => !byId.get(k)?.requirements.includes(id));
    if (missing.length)
      problems.push(`requirements.csv, ${id}: checks ${list(missing)} are no test case of junit.xml citing it`);
    const citing = cases
      .filter((c) => c.requirements.includes(id) && !checks.includes(c.checkId))
      .map((c) => c.checkId);
    if (citing.length)
      problems.push(`requirements.csv, ${id}: leaves out ${list(citing)}, which junit.xml has citing it`);
    const outcome = row.outcome as RequirementOutcome;
    const found = checks.map((k) => byId.get(k)).filter((c): c is Case => Boolean(c));
    if (found.length) {
      const given = outcomeOfChecks(id, found);
      if (outcome !== given)
        problems.push(
          `requirements.csv, ${id}: outcome ${outcome}, but the verdicts of its checks in junit.xml give ${given}`,
        );
    } else if (!NO_CHECK.includes(outcome))
      problems.push(`requirements.csv, ${id}: outcome ${outcome} without a check (untestable, uncovered or not-run)`);
  }
}

/** The exit codes a manifest's verdict can have (4: records were left behind, whatever the verdict). */
function exitCodesOf(m: Manifest): number[] {
  const byVerdict = { pass: [0], fail: [1], incomplete: [5] }[m.run.verdict];
  const certificationFailed = m.certification && !m.certification.passed ? [1] : [];
  return [...byVerdict, ...certificationFailed, 4];
}

/** The manifest's own claims against the test cases and the requirements. */
function checkManifest(m: Manifest, cases: Case[], rows: Array<Record<string, string>>, problems: string[]): void {
  for (const v of VERDICTS) {
    const n = cases.filter((c) => c.verdict === v).length;
    if (n !== (m.run.totals[v] ?? 0))
      problems.push(`junit.xml: ${n} test cases ${v} where the manifest counts ${m.run.totals[v] ?? 0}`);
  }
  if (!exitCodesOf(m).includes(m.run.exitCode))
    problems.push(`manifest.json: exit code ${m.run.exitCode} for a run whose verdict is ${m.run.verdict}`);
  const c = m.certification;
  if (!c?.passed) return;
  const scope = cases.filter((k) => c.services.includes(k.service));
  const claim = (what: string) => problems.push(`manifest.json: the certification passed, but ${what}`);
  if (m.run.verdict !== 'pass') claim(`the run's verdict is ${m.run.verdict}`);
  if (scope.length !== c.checksRun)
    claim(`junit.xml holds ${scope.length} checks of ${c.services.join(', ')}, not ${c.checksRun}`);
  const listed = new Set(c.notRunOnSharedData.map((u) => u.checkId));
  const unexcused = scope.filter((k) => k.verdict === 'skip' || (k.verdict === 'omit' && !listed.has(k.checkId)));
  if (unexcused.length)
    claim(`junit.xml has ${unexcused.length} skipped or omitted check(s): ${list(unexcused.map((k) => k.checkId))}`);
  const must = rows.filter((r) => r.level === 'MUST' && c.services.includes(r.service ?? ''));
  const bad = must
    .filter((r) => ['fail', 'error', 'uncovered', 'not-run'].includes(r.outcome ?? ''))
    .map((r) => r.id ?? '');
  if (bad.length) claim(`requirements.csv has MUST requirement(s) failing or without a check that ran: ${list(bad)}`);
}

/**
 * What disagrees between the files of the bundle in `dir` (one line each; empty when they tell one story).
 * @throws Error when a file cannot be read or parsed (the caller reports it)
 */
export function crossCheck(dir: string, m: Manifest): string[] {
  const problems: string[] = [];
  const cases = junitCases(readFileSync(join(dir, 'junit.xml'), 'utf8'), problems);
  const rows = parseCsv(readFileSync(join(dir, 'requirements.csv'), 'utf8'), { columns: true }) as Array<
    Record<string, string>
  >;
  checkRequirements(rows, cases, problems);
  checkManifest(m, cases, rows, problems);
  const ids = new Set(cases.map((c) => c.checkId));
  const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as {
    log?: { entries?: Array<{ _check?: string }> };
  };
  const strays = [...new Set((har.log?.entries ?? []).map((e) => e._check ?? '').filter((k) => !ids.has(k)))];
  if (strays.length) problems.push(`exchanges.har: entries of ${list(strays)}, no test case of junit.xml`);
  const owned = JSON.parse(readFileSync(join(dir, 'ownership.json'), 'utf8')) as Record<string, unknown>;
  const targeted = new Set(m.target.services.filter((s) => s.status !== 'not configured').map((s) => s.service));
  const foreign = Object.keys(owned).filter((s) => !targeted.has(s));
  if (foreign.length) problems.push(`ownership.json: names ${list(foreign)}, which the run did not target`);
  return problems;
}
