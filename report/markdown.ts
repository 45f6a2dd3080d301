/**
 * summary.md: the report as Markdown, for CI job summaries ($GITHUB_STEP_SUMMARY) and merge requests. Same content as
 * report.html without the pictures and state diagrams: verdict and services, gate, failing checks by cause
 * (markdown-failures.ts), coverage within the run's selection, requirements needing attention (the rest folded into
 * <details>), figures (markdown-figures.ts). Each section is a function returning its lines; summaryMarkdown joins
 * them.
 */
import { situationsMarkdown } from './situations.js';
import { COVERAGE_DEFINITION, coverageText } from './coverage-text.js';
import { gateLists, gateSentence, headline } from './headline.js';
import { failuresMarkdown } from './markdown-failures.js';
import { cleanupMarkdown, statsMarkdown, transportMarkdown } from './markdown-figures.js';
import { mdCell as cell, mdFence as fence, mdTable } from './md-table.js';
import type { Summary } from './summary.js';
import { authText, targetStatement } from './target.js';
import { type ServiceView, duration, failureViews, safeRun, serviceViews, verdictCounts } from './view.js';

/** The run description as reports show it (report/view.ts safeRun: no credentials). */
type SafeRun = ReturnType<typeof safeRun>;

/**
 * summary.md of a run: its summary and run folder (where the failing checks' exchanges are read) in, the Markdown out.
 */
export function summaryMarkdown(s: Summary, folder: string): string {
  const run = safeRun(s);
  const services = serviceViews(s);
  const L = [
    ...headlineMarkdown(s, run),
    ...servicesMarkdown(s, run),
    ...transportMarkdown(s),
    ...gateMarkdown(s),
    ...failuresMarkdown(failureViews(s, folder)),
    ...coverageMarkdown(services),
    ...categoriesMarkdown(s),
    ...situationsMarkdown(s.situations),
    ...requirementsMarkdown(services),
    ...statsMarkdown(s),
    ...cleanupMarkdown(s),
    '',
    `<details><summary>Profile used</summary>`,
    '',
    fence(JSON.stringify(run.profile, null, 2), 'json'),
    '',
    '</details>',
  ];
  return `${L.join('\n')}\n`;
}

/** The title with the headline, the target, the run's facts and totals, and the shards a merged run joins, as lines. */
export function headlineMarkdown(s: Summary, run: SafeRun): string[] {
  const L = [
    `# Conformance run ${run.runId}: ${headline(s)}`,
    '',
    `**${targetStatement(run)}**`,
    '',
    `Seed **${run.seed}** · started ${run.startedAt} · ${duration(run.durationMs)} · ${s.totals.checks} checks: ` +
      `${s.totals.pass} pass, ${s.totals.fail} fail, ${s.totals.error} error, ${s.totals.skip} skip, ` +
      `${s.totals.omit} omit`,
    '',
  ];
  if (run.shards?.length)
    L.push(
      `Merged from ${run.shards.length} shards: ` +
        `${run.shards.map((x) => `${x.runId}${x.shard ? ` (${x.shard})` : ''}`).join(', ')}`,
      '',
    );
  return L;
}

/**
 * One table row per target of the run (where it is, its checks' verdicts, coverage, requests sent), then what coverage
 * means, as lines.
 */
export function servicesMarkdown(s: Summary, run: SafeRun): string[] {
  return [
    mdTable(
      ['service', 'target', 'checks (pass/fail/error/skip/omit)', 'requirements with a check', 'requests sent'],
      run.targets.map((t) => {
        const c = s.coverage[t.service];
        const n = verdictCounts(s.checks.filter((x) => x.service === t.service));
        const where =
          t.status === 'not configured'
            ? 'not configured'
            : `${t.status}${t.baseUrl ? ` ${t.baseUrl}${t.servicePath ?? ''}` : ''}${t.auth ? ` (${authText(t)})` : ''}`;
        const inScope = c && c.scope !== 'none';
        return [
          t.service,
          where,
          `${n.pass}/${n.fail}/${n.error}/${n.skip}/${n.omit}`,
          inScope
            ? coverageText(c, s).replace(/^requirements with a check /, '')
            : c?.scope === 'none'
              ? 'not run'
              : '-',
          inScope ? String(s.requests?.[t.service] ?? '-') : '-',
        ];
      }),
    ),
    '',
    `*${COVERAGE_DEFINITION}*`,
  ];
}

/**
 * The "Gate" section (Summary.gate) as lines: its sentence and known-failures file, then each of its non-empty lists.
 */
export function gateMarkdown(s: Summary): string[] {
  const g = s.gate;
  const L = [
    '',
    '## Gate',
    '',
    `${gateSentence(s)}${g.knownFailuresFile ? ` Known failures: \`${g.knownFailuresFile}\`${g.deployment ? `, deployment ${g.deployment}` : ''}.` : ''}`,
  ];
  const code = (id: string) => `\`${id}\``;
  const format = { check: code, code, text: cell, plain: (t: string) => t, passEntry: (t: string) => t };
  for (const { title, rows } of gateLists(g, format))
    if (rows.length) L.push('', `**${title}** (${rows.length})`, '', ...rows.map((r) => `- ${r}`));
  return L;
}

/**
 * The "Coverage" section: per service in the run, its requirements without a check, not run or untestable, as lines.
 */
export function coverageMarkdown(services: ServiceView[]): string[] {
  const L = ['', '## Coverage', ''];
  for (const v of services) {
    if (v.scope === 'none') {
      L.push(`- **${v.service}**: not run (no test file of it selected)`);
      continue;
    }
    const gaps = v.uncovered.length
      ? `no check yet for ${v.uncovered.map((r) => `${r.id} (${r.level})`).join(', ')}`
      : v.scope === 'all'
        ? 'every testable requirement has a check'
        : 'no gap among the selected checks';
    L.push(
      `- **${v.service}**: ` +
        `${gaps}${v.notRun.length ? `; ${v.notRun.length} not run (outside this run's selection)` : ''}${v.untestable.length ? `; untestable: ${v.untestable.map((r) => r.id).join(', ')}` : ''}`,
    );
  }
  return L;
}

/**
 * The "Requirements" section: per service the run selected, its requirements table (serviceRequirementsMarkdown), as
 * lines.
 */
export function requirementsMarkdown(services: ServiceView[]): string[] {
  const L = ['', '## Requirements', ''];
  for (const v of services) if (v.scope !== 'none') L.push(...serviceRequirementsMarkdown(v));
  return L;
}

/**
 * One service's requirements as lines: those needing attention (failed, errored, skipped, no check) in a table, the
 * rest folded into <details> so a long passing list does not bury them.
 */
export function serviceRequirementsMarkdown(v: ServiceView): string[] {
  const all = v.sections.flatMap((x) => x.requirements);
  const attention = all.filter((r) => ['fail', 'error', 'skip', 'uncovered'].includes(r.outcome));
  const checksOf = (r: (typeof all)[number]) =>
    r.checkResults.map((c) => `${c.verdict}: ${c.title}`).join('<br>') ||
    (r.untestable ? `untestable: ${r.untestable}` : '-');
  const L = [`### ${v.service}`, ''];
  if (attention.length)
    L.push(
      mdTable(
        ['requirement', 'level', 'outcome', 'checks'],
        attention.map((r) => [r.id, r.level, r.outcome, checksOf(r)]),
      ),
      '',
    );
  else L.push('Every requirement in scope held.', '');
  const rest = all.filter((r) => !attention.includes(r));
  if (rest.length)
    L.push(
      `<details><summary>${rest.length} more: passing, omitted, untestable or not run</summary>`,
      '',
      mdTable(
        ['requirement', 'level', 'outcome', 'section', 'checks'],
        rest.map((r) => [r.id, r.level, r.outcome, r.section, checksOf(r)]),
      ),
      '',
      '</details>',
      '',
    );
  return L;
}

/**
 * Coverage by category (specs/common/categories.ts): per requirement in scope whose sentence implies categories, those
 * the run's checks reached and those they did not, with why a run may not reach one.
 */
export function categoriesMarkdown(s: Summary): string[] {
  const rows = s.requirements.filter((r) => r.categories?.length && r.outcome !== 'not-run');
  if (!rows.length) return [];
  const reached = rows.flatMap((r) => r.categories!).filter((c) => c.by.length).length;
  const all = rows.flatMap((r) => r.categories!).length;
  return [
    '',
    '## Categories',
    '',
    `The multiplicities and boundaries each requirement's sentence implies: ${reached} of ${all} reached by ` +
      `this run's checks.`,
    '',
    mdTable(
      ['requirement', 'reached', 'not reached'],
      rows.map((r) => [
        r.id,
        r
          .categories!.filter((c) => c.by.length)
          .map((c) => c.id)
          .join(', ') || '-',
        r
          .categories!.filter((c) => !c.by.length)
          .map((c) => `${c.id}${c.reach ? ` (${c.reach})` : ''}`)
          .join(', ') || '-',
      ]),
    ),
  ];
}
