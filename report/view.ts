/**
 * What the HTML and Markdown reports show, derived once from a summary and the run folder: requirements grouped per
 * service and seed section, failing checks with the rule text, their last exchanges (redacted) and a replay command,
 * and the redacted run description.
 */
import type { OAuthShown } from '../harness/oauth.js';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readExchangesFile } from '../harness/exchange-file.js';
import type { Exchange } from '../harness/reply.js';
import { redactHeaders, redactJson, redactText } from '../harness/redact.js';
import { curlCommand } from './curl.js';
import { type CausePlace, type GateClass, orderByCause } from './failure-order.js';
import type { CheckResult } from './results.js';
import type { Summary } from './summary.js';

/** Exchanges shown per failing check: the one the failure came from and the two before it. */
export const EXCHANGES_SHOWN = 3;
/** Exchanges shown of a failing walk step (its operation first, then the reads that judged it). */
export const STEP_EXCHANGES_SHOWN = 6;

export type RequirementRow = Summary['requirements'][number];

export interface FailureView {
  check: CheckResult;
  /** The requirements the failure cites (or all it verifies for an error), with their text. */
  rules: RequirementRow[];
  /** How the gate treats it: gating, could not judge, known failure, pending, or EXPECT-only. */
  gate: GateClass;
  /** Its place among the run's failures: root cause, same cause, or downstream of one (report/failure-order.ts). */
  place: CausePlace;
  reason?: string;
  /**
   * The exchanges shown, each with its 1-based number among the check's exchanges; `failing` marks the one the failure
   * came from.
   */
  exchanges: Array<{ exchange: Exchange; curl: string; number: number; failing: boolean }>;
  exchangesTotal: number;
}

export interface SectionView {
  section: string;
  requirements: Array<RequirementRow & { checkResults: CheckResult[] }>;
}

export interface ServiceView {
  service: string;
  status: string;
  where?: string;
  /** How much of the service the run selected (report/summary.ts ServiceScope). */
  scope: string;
  sections: SectionView[];
  uncovered: RequirementRow[];
  untestable: RequirementRow[];
  notRun: RequirementRow[];
  checks: CheckResult[];
}

/** Strips user:password@ from a URL and masks registered secrets. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  return redactText(url.replace(/\/\/[^/@]*@/, '//[REDACTED]@'));
}

/**
 * Loads a check's exchanges from the run folder; the path is reduced to exchanges/<file> so a copied or merged folder
 * works.
 */
export function loadExchanges(folder: string, check: CheckResult): Exchange[] {
  if (!check.exchangesFile) return [];
  const file = join(folder, 'exchanges', basename(check.exchangesFile));
  if (!existsSync(file)) return [];
  return (readExchangesFile(file).exchanges ?? []).map(redactExchange);
}

/** Redacts an exchange again before display (the client already did; this guards hand-made files). */
export function redactExchange(e: Exchange): Exchange {
  return {
    ...e,
    url: safeUrl(e.url)!,
    request: { headers: redactHeaders(e.request.headers), body: redactJson(e.request.body) },
    reply: e.reply && {
      ...e.reply,
      headers: redactHeaders(e.reply.headers),
      body: redactJson(e.reply.body),
      text: e.reply.text === undefined ? undefined : redactText(e.reply.text),
    },
    error: e.error === undefined ? undefined : redactText(e.error),
  };
}

/**
 * Which of a failing check's exchanges to show: a walk's failing step, else the failing exchange and the two before it.
 */
function shownExchanges(check: CheckResult, all: Exchange[], oauth?: OAuthShown): FailureView['exchanges'] {
  const failing = check.failure?.exchange?.number ?? all.length;
  const [first, last] = check.failure?.stepExchanges ?? [Math.max(1, failing - EXCHANGES_SHOWN + 1), failing];
  const cap = check.failure?.stepExchanges ? STEP_EXCHANGES_SHOWN : EXCHANGES_SHOWN;
  const numbers = Array.from(
    { length: Math.max(0, Math.min(last, all.length) - first + 1) },
    (_, i) => first + i,
  ).slice(0, cap);
  const marked = check.failure?.stepExchanges ? first : failing;
  return numbers.map((n) => ({
    exchange: all[n - 1]!,
    curl: curlCommand(all[n - 1]!, oauth),
    number: n,
    failing: n === marked,
  }));
}

/**
 * The failing checks as the reports list them: ordered by cause (report/failure-order.ts: grouped by requirement in
 * state-table order, root causes first, the same cause and what failed downstream of it after it), each with its rules,
 * how the gate treats it and its exchanges.
 */
export function failureViews(s: Summary, folder: string): FailureView[] {
  const byId = new Map(s.requirements.map((r) => [r.id, r]));
  const g = s.gate;
  return orderByCause(
    s.checks,
    g,
    s.run.targets.map((t) => t.service),
  ).map(({ check, gate, place }) => {
    const ids = check.failedRequirements.length ? check.failedRequirements : check.verifies;
    const all = loadExchanges(folder, check);
    const known = g.expected.find((x) => x.checkId === check.checkId);
    const pending = g.pending.find((x) => x.checkId === check.checkId);
    return {
      check,
      rules: ids.map((id) => byId.get(id)).filter((r): r is RequirementRow => Boolean(r)),
      gate,
      reason: known?.reason ?? pending?.reason,
      exchanges: shownExchanges(check, all, s.run.targets.find((t) => t.service === check.service)?.oauth),
      exchangesTotal: all.length,
      place,
    };
  });
}

/** One line on a failure's place among the run's failures (none for a root that stands alone). */
export function placeText(
  f: Pick<FailureView, 'place'> & Partial<Pick<FailureView, 'gate'>>,
  titleOf: (checkId: string) => string,
): string | undefined {
  const p = f.place;
  const at = (op?: string) => (op ? ` at ${op}` : '');
  // A check that could not judge broke nothing: its place says what went unjudged, never that a rule "fails".
  const unjudged = f.gate === 'could-not-judge';
  if (p.role === 'root') {
    if (!p.followers) return undefined;
    const more = `${p.followers} more check${p.followers > 1 ? 's' : ''} below`;
    return unjudged
      ? `first of its kind: ${p.requirement} could not be judged${at(p.operation)} (the deployment did not answer); ` +
          `${more} could not judge it either`
      : `root cause: ${p.requirement} fails${at(p.operation)}; ` +
          `${more.replace('check', 'failing check')} follow from it`;
  }
  if (p.role === 'same-cause')
    return unjudged
      ? `same kind: ${p.requirement} could not be judged${at(p.operation)} here either, ` +
          `as in "${titleOf(p.cause!.checkId)}" above`
      : `same cause: ${p.requirement} fails${at(p.operation)} here too, as in "${titleOf(p.cause!.checkId)}" above`;
  return (
    `downstream: failed after ${p.cause!.operation ?? 'an operation'}, which breaks ${p.cause!.requirement} in ` +
    `"${titleOf(p.cause!.checkId)}" above; probably the same cause`
  );
}

export function serviceViews(s: Summary): ServiceView[] {
  const checks = new Map(s.checks.map((c) => [c.checkId, c]));
  return s.run.targets
    .filter((t) => t.status !== 'not configured')
    .map((t) => {
      const cov = s.coverage[t.service];
      const reqs = s.requirements.filter((r) => r.service === t.service);
      const sections = new Map<string, SectionView>();
      for (const r of reqs) {
        let v = sections.get(r.section);
        if (!v) sections.set(r.section, (v = { section: r.section, requirements: [] }));
        v.requirements.push({
          ...r,
          checkResults: r.checks.map((id) => checks.get(id)).filter((c): c is CheckResult => Boolean(c)),
        });
      }
      return {
        service: t.service,
        status: t.status,
        where: t.baseUrl ? `${safeUrl(t.baseUrl)}${t.servicePath ?? ''}` : undefined,
        scope: cov?.scope ?? 'all',
        sections: [...sections.values()],
        uncovered: reqs.filter((r) => r.outcome === 'uncovered'),
        untestable: reqs.filter((r) => r.outcome === 'untestable'),
        notRun: reqs.filter((r) => r.outcome === 'not-run'),
        checks: s.checks.filter((c) => c.service === t.service),
      };
    });
}

/** The run description as reports show it: credentials never appear, URLs lose user info. */
export function safeRun(s: Summary) {
  return {
    ...s.run,
    targets: s.run.targets.map((t) => ({ ...t, baseUrl: safeUrl(t.baseUrl) })),
    profile: redactJson(s.run.profile),
  };
}

export const duration = (ms: number) =>
  ms < 60000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;

export function verdictCounts(checks: CheckResult[]) {
  const n = { pass: 0, fail: 0, error: 0, skip: 0, omit: 0 };
  for (const c of checks) n[c.verdict]++;
  return n;
}
