/**
 * How a failed check reads, wherever it is shown (console, report.html, summary.md, JUnit, Allure): the rule ID with
 * its level and text, what was checked, what was expected, what the deployment gave, and the exchange it came from. A
 * model-based walk reads: the replay command first, then the numbered steps, then the finding and the failing step's
 * exchanges. No assertion-library phrasing ("expected false to be true // Object.is equality") and no stack frames: the
 * reader needs the rule and the evidence, not the suite's call stack.
 *
 * The registration (harness/register.ts) calls `explainFailure` on whatever a check threw; the check language
 * (harness/check.ts) calls `assertionDetail` when an assertion fails in a rule.
 */
import type { Requirement } from '../specs/common/model.js';
import { citeText } from '../specs/common/seed.js';
import type { Exchange } from './reply.js';
import { type ClauseFinding, ConformanceFailure, type Failure, type FailureDetail } from './verdict.js';

const CAP = 600;
const clip = (s: string, n = CAP) => (s.length > n ? `${s.slice(0, n)}... [${s.length - n} more characters]` : s);
const ANSI = /\u001b\[[0-9;]*m/g;

/** A value as a reader expects it in a failure: JSON where it is JSON-able, clipped. */
export function renderValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return '[function]';
  try {
    return clip(JSON.stringify(v) ?? String(v));
  } catch {
    return clip(String(v));
  }
}

/** True for an error an assertion library threw (vitest's expect, chai, node:assert). */
export function isAssertionError(e: unknown): e is Error & { expected?: unknown; actual?: unknown } {
  return e instanceof Error && (e.name === 'AssertionError' || 'matcherResult' in e || 'actual' in e);
}

/** Relations of chai's wording, as a reader would write the expected value. */
const RELATIONS: Array<[RegExp, string]> = [
  [/^be (?:at least|greater than or equal to) /, '>= '],
  [/^be (?:at most|less than or equal to) /, '<= '],
  [/^be (?:above|greater than) /, '> '],
  [/^be (?:below|less than) /, '< '],
  [/^have (?:a )?length (?:of )?/, 'length '],
  [/^(?:include|contain) /, 'includes '],
  [/^have property /, 'has property '],
  [/^be an instance of /, 'instance of '],
  [/^be (?:a|an) /, 'of type '],
];

/**
 * Splits an assertion error into what was checked (the assertion's own message), the expected value and the actual one,
 * dropping the library's phrasing. E.g. "trackingId echoed: expected 't-1' to be 'x' // Object.is equality" → what
 * "trackingId echoed", expected "\"x\"", got "\"t-1\"".
 */
export function assertionDetail(e: Error & { expected?: unknown; actual?: unknown }): FailureDetail {
  const text = e.message.replace(ANSI, '').replace(/\s*\/\/ Object\.is equality\s*$/, '');
  const at = text.startsWith('expected ') ? 0 : text.indexOf(': expected ');
  const what = at < 0 ? text : text.slice(0, at);
  const phrase = at < 0 ? '' : text.slice(at === 0 ? 0 : at + 2);
  const relation =
    /^expected [\s\S]*? (not )?to ((?:be|have|include|contain|deeply|equal|strictly|satisfy|match|throw)[\s\S]*)$/.exec(
      phrase,
    );
  const got = 'actual' in e ? renderValue(e.actual) : undefined;
  let expected = 'expected' in e ? renderValue(e.expected) : undefined;
  const rule = relation ? RELATIONS.find(([re]) => re.test(relation[2]!)) : undefined;
  if (relation && rule)
    expected = `${relation[1] ? 'not ' : ''}${expected !== undefined ? `${rule[1]}${expected}` : relation[2]!.replace(rule[0], rule[1])}`;
  else if (relation?.[1] && expected !== undefined) expected = `not ${expected}`;
  if (expected === undefined && got === undefined && phrase) return { what: what || phrase, got: phrase };
  if (isBareBoolean(expected) && what) return inWords(what);
  return { what, ...(expected !== undefined ? { expected } : {}), ...(got !== undefined ? { got } : {}) };
}

/** A bare truth value as an expected value ("true", "not true", "truthy", ...), which says nothing on its own. */
const isBareBoolean = (expected: string | undefined) =>
  expected !== undefined && /^(not )?(true|false|truthy|falsy|be truthy|be falsy)$/.test(expected);

/**
 * A yes-or-no assertion in words: its message states what should hold, often followed by the evidence ("X accepts a
 * valid request: HTTP 409, ...", "X must be rejected, got HTTP 200", "X answers at its documented path (HTTP 404)").
 * The claim is what was expected; the evidence, or "not so", is what the deployment gave.
 */
function inWords(message: string): FailureDetail {
  const cut = [/, got /, /: /, / \((?=[^()]*(\([^()]*\)[^()]*)*\)$)/]
    .map((re) => re.exec(message))
    .find((m) => m && m.index > 0);
  if (!cut) return { what: '', expected: message, got: 'not so' };
  const claim = message.slice(0, cut.index);
  let evidence = message.slice(cut.index + cut[0].length);
  if (cut[0].startsWith(' (')) evidence = evidence.slice(0, -1);
  return { what: '', expected: claim, got: `not so: ${evidence}` };
}

/** One exchange in a line: operation, status (or transport error), success flag and time. */
export function exchangeOutcome(x: Exchange): string {
  if (x.error !== undefined) return `no reply (${x.error})`;
  const success = (x.reply?.body as { success?: unknown } | undefined)?.success;
  return (
    `HTTP ${x.reply?.status ?? '-'}${typeof success === 'boolean' ? `, success=${success}` : ''} in ` +
    `${x.durationMs} ms`
  );
}

/**
 * The report of a failure: detail resolved against the check's exchanges. Its exchange is the one the failure names,
 * else `judged` (the last reply the check's body was handed: harness/check.ts judgedExchange), else the last.
 */
export function failureReport(e: ConformanceFailure, exchanges: Exchange[], judged?: number): Failure {
  const d = e.detail;
  const plain = e.message.replace(/^\[[^\]]*\] /, '');
  const number = d.exchange ?? judged ?? exchanges.length;
  const x = exchanges[number - 1];
  // A failure with no detail is words about what the deployment did: they read as "got".
  const described = d.what !== undefined || d.expected !== undefined || d.got !== undefined;
  return {
    requirements: e.requirements,
    what: d.what ?? '',
    ...(d.expected !== undefined ? { expected: d.expected } : {}),
    ...(d.got !== undefined || !described ? { got: d.got ?? plain } : {}),
    ...(x ? { exchange: { number, of: exchanges.length, operation: x.operation, outcome: exchangeOutcome(x) } } : {}),
    ...(d.replay ? { replay: d.replay } : {}),
    ...(d.steps ? { steps: d.steps } : {}),
    ...(d.stepExchanges ? { stepExchanges: d.stepExchanges } : {}),
    ...(d.operation ? { operation: d.operation } : x ? { operation: x.operation } : {}),
    ...(d.findings?.length ? { findings: d.findings } : {}),
    ...(d.setUp ? { setUp: d.setUp } : {}),
  };
}

/**
 * The clauses that rejected the observation, as lines: each clause with the requirement it cites, what it rejects, the
 * sentence that forbids it, and what was observed (several findings of one clause share its heading).
 */
export function findingLines(findings: ClauseFinding[]): string[] {
  const L: string[] = [];
  const byClause = new Map<string, ClauseFinding[]>();
  for (const f of findings)
    byClause.set(`${f.clause} ${f.requirement}`, [...(byClause.get(`${f.clause} ${f.requirement}`) ?? []), f]);
  for (const group of byClause.values()) {
    const f = group[0]!;
    L.push(`  clause ${f.clause} (${f.requirement}) rejects ${f.rejects}`);
    L.push(
      f.forbids
        ? `    forbidden by ${citeText(f.forbids)}`
        : '    an EXPECT requirement: no seed sentence; what any identity service does',
    );
    for (const g of group.slice(0, 6)) L.push(`    observed: ${g.observed}`);
    if (group.length > 6) L.push(`    (+ ${group.length - 6} more observations of this clause)`);
  }
  return L;
}

/** The failure as text: one line per broken rule, then the evidence, aligned. */
export function failureText(r: Failure, rules: Map<string, Requirement>, exchanges: Exchange[] = []): string {
  const L: string[] = [];
  for (const id of r.requirements) {
    const rule = rules.get(id);
    L.push(rule ? `${id} (${rule.level}): ${rule.text}` : id);
  }
  const line = (label: string, value: string | undefined) => {
    if (value === undefined || value === '') return;
    const [first, ...rest] = value.split('\n');
    L.push(`  ${`${label}:`.padEnd(10)}${first}`, ...rest.map((l) => `    ${l}`));
  };
  line('replay', r.replay);
  line(
    'set-up',
    r.setUp ? `${r.setUp}: it failed before the step this check is about, which was never sent` : undefined,
  );
  if (r.steps?.length) L.push('  steps:', ...r.steps.map((s) => `    ${s.trim()}`));
  if (r.findings?.length) L.push(...findingLines(r.findings));
  // The findings say what was checked and observed; the rest is said only where it adds to them (a bad-input check's
  // shrunk request).
  const observed = new Set(r.findings?.map((f) => f.observed) ?? []);
  const repeats = observed.size > 0 && (r.got ?? '').split('\n').every((l) => observed.has(l.trim()));
  if (!observed.size) {
    line('checked', r.what);
    line('expected', r.expected);
  }
  if (!repeats) line('got', r.got);
  if (r.stepExchanges) {
    const [from, to] = r.stepExchanges;
    L.push(`  exchanges of the failing step (${from}-${to} of ${exchanges.length}):`);
    for (const x of exchanges.slice(from - 1, to).slice(0, 4))
      L.push(
        `    ${x.operation} ` +
          `${clip(JSON.stringify((x.request.body as { content?: unknown })?.content ?? x.request.body), 300)}`,
        `      -> ${exchangeOutcome(x)}: ${clip(JSON.stringify(x.reply?.body ?? x.reply?.text ?? null), 300)}`,
      );
  } else if (r.exchange)
    line('exchange', `${r.exchange.number} of ${r.exchange.of}: ${r.exchange.operation} -> ${r.exchange.outcome}`);
  return L.join('\n');
}

/**
 * Fields that make Allure and vitest read the error as an assertion (status "failed", not "broken"), without a diff.
 */
interface AssertionShape {
  expected?: string;
  actual?: string;
  showDiff?: boolean;
  report?: Failure;
}

/**
 * Turns what a check threw into what the reports show, in place where it can:
 * - an assertion error outside a rule becomes a ConformanceFailure citing `verifies`;
 * - a ConformanceFailure gets its text (failureText) as message, a stack without frames, the expected and actual values
 *   as `expected`/`actual` (so allure-vitest, which calls an error with those members an assertion, marks the check
 *   failed) and its report as `report`;
 * - CouldNotJudge, a guard refusal or a stop keep their message and lose their stack frames;
 * - anything else (a bug of the suite) is returned untouched, stack and all.
 * @returns the error to rethrow, and the failure's report when it is a failure
 */
export function explainFailure(
  e: unknown,
  context: { verifies: string[]; rules: Map<string, Requirement>; exchanges: Exchange[]; judged?: number },
): { error: unknown; report?: Failure } {
  let error = e;
  if (isAssertionError(e) && !(e instanceof ConformanceFailure))
    error = new ConformanceFailure(context.verifies, e.message, assertionDetail(e));
  if (error instanceof ConformanceFailure) {
    const report = failureReport(error, context.exchanges, context.judged);
    // An assertion with no message of its own ("expected true, got false"): the rule it judged is what was expected.
    if (isBareBoolean(report.expected) && !report.what) {
      report.expected = report.requirements.map((id) => context.rules.get(id)?.text ?? id).join('; ');
      report.got = 'not so (the assertion gives no detail)';
    }
    const text = failureText(report, context.rules, context.exchanges);
    const shaped = error as ConformanceFailure & AssertionShape;
    shaped.message = text;
    shaped.stack = `ConformanceFailure: ${text}`;
    shaped.expected = report.expected ?? report.requirements.map((id) => context.rules.get(id)?.text ?? id).join('\n');
    shaped.actual = report.got ?? report.what;
    shaped.showDiff = false;
    shaped.report = report;
    return { error, report };
  }
  if (
    e instanceof Error &&
    [e.name, e.constructor.name].some((n) => /^(CouldNotJudge|GuardRefusal|StopCheck)$/.test(n))
  )
    e.stack = `${e.name}: ${e.message}`;
  return { error };
}
