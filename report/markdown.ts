/**
 * summary.md: the report as Markdown, for CI job summaries ($GITHUB_STEP_SUMMARY) and merge
 * requests. Same content as report.html without the pictures and state diagrams: verdict and
 * services, gate, failing checks by cause (root causes first: report/failure-order.ts; rule,
 * checked, expected, got, exchange; walks: replay command and steps), coverage within the run's selection, requirements needing attention (the rest
 * folded into <details>), figures.
 */
import { COVERAGE_DEFINITION, coverageText } from './coverage-text.js';
import { mdCell as cell, mdTable } from './md-table.js';
import { gateSentence, headline } from './headline.js';
import type { Summary } from './summary.js';
import { targetStatement } from './target.js';
import { duration, failureViews, placeText, safeRun, serviceViews, verdictCounts } from './view.js';
import { shownTitle } from './failure-order.js';

const fence = (text: string, lang = '') => {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
};
const MAX_BODY = 3000;
const clip = (text: string, max = MAX_BODY) =>
  text.length > max ? `${text.slice(0, max)}\n... [${text.length - max} more characters]` : text;

export function summaryMarkdown(s: Summary, folder: string): string {
  const run = safeRun(s);
  const g = s.gate;
  const L: string[] = [];
  L.push(`# Conformance run ${run.runId}: ${headline(s)}`, '');
  L.push(`**${targetStatement(run)}**`, '');
  L.push(
    `Seed **${run.seed}** · started ${run.startedAt} · ${duration(run.durationMs)} · ${s.totals.checks} checks: ${s.totals.pass} pass, ${s.totals.fail} fail, ${s.totals.error} error, ${s.totals.skip} skip, ${s.totals.omit} omit`,
    '',
  );
  if (run.shards?.length)
    L.push(
      `Merged from ${run.shards.length} shards: ${run.shards.map((x) => `${x.runId}${x.shard ? ` (${x.shard})` : ''}`).join(', ')}`,
      '',
    );
  L.push(
    mdTable(
      ['service', 'target', 'checks (pass/fail/error/skip/omit)', 'requirements with a check', 'requests sent'],
      run.targets.map((t) => {
        const c = s.coverage[t.service];
        const n = verdictCounts(s.checks.filter((x) => x.service === t.service));
        const where =
          t.status === 'not configured'
            ? 'not configured'
            : `${t.status}${t.baseUrl ? ` ${t.baseUrl}${t.servicePath ?? ''}` : ''}${t.auth ? ` (${t.auth})` : ''}`;
        const inScope = c && c.scope !== 'none';
        return [
          t.service,
          where,
          `${n.pass}/${n.fail}/${n.error}/${n.skip}/${n.omit}`,
          inScope ? coverageText(c).replace(/^requirements with a check /, '') : c?.scope === 'none' ? 'not run' : '-',
          inScope ? String(s.requests?.[t.service] ?? '-') : '-',
        ];
      }),
    ),
    '',
    `*${COVERAGE_DEFINITION}*`,
  );

  const paced = Object.entries(s.transport ?? {});
  if (paced.length)
    L.push(
      '',
      '## Transport',
      '',
      'How each service answered "not now": throttled replies pause its requests; repeated throttling lowers its in-flight bound and rate.',
      '',
      mdTable(
        ['service', 'attempts', 'failed transiently (throttled)', 'paused', 'in flight: ceiling / lowest / final', 'rate: lowest / final'],
        paced.map(([service, f]) => [
          service,
          String(f.attempts),
          `${f.transientFailures} (${f.throttled})`,
          `${(f.pausedMs / 1000).toFixed(1)} s`,
          `${f.bound.ceiling} / ${f.bound.lowest} / ${f.bound.final}`,
          f.rate.lowest === undefined
            ? 'no limit'
            : `${f.rate.lowest}/s / ${f.rate.final === undefined ? 'no limit' : `${f.rate.final}/s`}`,
        ]),
      ),
    );

  L.push('', '## Gate', '');
  L.push(
    `${gateSentence(s)}${g.knownFailuresFile ? ` Known failures: \`${g.knownFailuresFile}\`${g.deployment ? `, deployment ${g.deployment}` : ''}.` : ''}`,
  );
  const list = (title: string, rows: string[]) => {
    if (rows.length) L.push('', `**${title}** (${rows.length})`, '', ...rows.map((r) => `- ${r}`));
  };
  list(
    'Gating failures',
    g.gating.map((id) => `\`${id}\``),
  );
  list(
    'Could not judge (the deployment did not answer; the run is incomplete)',
    (g.incomplete ?? []).map((id) => `\`${id}\``),
  );
  list(
    'Failures of EXPECT requirements only (reported, not gating)',
    g.expectOnly.map((id) => `\`${id}\``),
  );
  list(
    'Known failures (expected)',
    g.expected.map((x) => `\`${x.checkId}\` via ${x.entry}: ${cell(x.reason)}`),
  );
  list(
    'Pending checks (not yet passed on this deployment)',
    g.pending.map((x) => `\`${x.checkId}\`: ${cell(x.reason)}`),
  );
  list(
    'Unexpected passes: remove these from the known-failures list',
    g.unexpectedPasses.map(
      (x) =>
        `${x.entry}: every check covering it passed (${x.checks
          .slice(0, 5)
          .map((id) => `\`${id}\``)
          .join(', ')}${x.checks.length > 5 ? ', ...' : ''}); listed because: ${cell(x.reason)}`,
    ),
  );
  list(
    'Pending checks that passed for the first time (they gate from now on)',
    g.graduated.map((id) => `\`${id}\``),
  );

  const failures = failureViews(s, folder);
  if (failures.length) {
    L.push('', `## Failing checks (${failures.length})${failures.length > 1 ? ', root causes first' : ''}`, '');
    const titles = new Map(failures.map((f) => [f.check.checkId, f.check.title]));
    let cause = 0;
    for (const f of failures) {
      const r = f.check.failure;
      if (f.place.role === 'root') {
        const n = 1 + f.place.followers;
        L.push(
          `### Cause ${++cause}: ${f.place.requirement}${f.place.operation ? ` at ${f.place.operation}` : ''} (${n} failing check${n > 1 ? 's' : ''}${f.gate === 'gating' ? '' : `, ${f.gate}`})`,
          '',
        );
      }
      L.push(`#### ${f.check.verdict.toUpperCase()} (${f.gate}): ${f.check.service} · ${cell(shownTitle(f.check))}`, '');
      const place = placeText(f, (id) => titles.get(id) ?? id);
      if (place) L.push(`*${cell(place)}*`, '');
      for (const rule of f.rules) L.push(`- **${rule.id}** (${rule.level}, ${rule.section}): ${cell(rule.text)}`);
      if (r) {
        if (r.replay) L.push(`- replay: \`${r.replay}\``);
        if (r.steps?.length) L.push('- steps:', '', fence(r.steps.join('\n')), '');
        if (r.what) L.push(`- checked: ${cell(r.what)}`);
        if (r.expected !== undefined) L.push(`- expected: \`${cell(clip(r.expected, 500))}\``);
        if (r.got !== undefined) L.push(`- got: \`${cell(clip(r.got, 500))}\``);
        if (r.exchange && !r.stepExchanges)
          L.push(`- exchange ${r.exchange.number} of ${r.exchange.of}: ${r.exchange.operation} → ${r.exchange.outcome}`);
      } else L.push('', fence(clip(f.check.message ?? f.check.note ?? '(no message)')));
      L.push('', `Check \`${f.check.checkId}\` in \`${f.check.file}\`${f.reason ? `; listed: ${cell(f.reason)}` : ''}`);
      for (const { exchange: e, curl, number, failing } of f.exchanges) {
        L.push(
          '',
          `<details><summary>${failing ? 'Failing exchange' : 'Exchange'} ${number} of ${f.exchangesTotal}: ${e.operation} → ${e.error ? `no reply (${cell(e.error)})` : `HTTP ${e.reply?.status}`} in ${e.durationMs} ms</summary>`,
          '',
        );
        L.push(
          'Replay (set the credential variables first):',
          '',
          fence(curl, 'sh'),
          '',
          'Request body:',
          '',
          fence(clip(JSON.stringify(e.request.body, null, 2)), 'json'),
        );
        if (e.reply)
          L.push(
            '',
            'Reply body:',
            '',
            fence(clip(e.reply.body !== undefined ? JSON.stringify(e.reply.body, null, 2) : (e.reply.text ?? '')), 'json'),
          );
        L.push('', '</details>');
      }
      L.push('');
    }
  }

  const services = serviceViews(s);
  L.push('', '## Coverage', '');
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
      `- **${v.service}**: ${gaps}${v.notRun.length ? `; ${v.notRun.length} not run (outside this run's selection)` : ''}${v.untestable.length ? `; untestable: ${v.untestable.map((r) => r.id).join(', ')}` : ''}`,
    );
  }

  L.push(...categoriesMarkdown(s));
  L.push('', '## Requirements', '');
  for (const v of services) {
    if (v.scope === 'none') continue;
    const all = v.sections.flatMap((x) => x.requirements);
    const attention = all.filter((r) => ['fail', 'error', 'skip', 'uncovered'].includes(r.outcome));
    const checksOf = (r: (typeof all)[number]) =>
      r.checkResults.map((c) => `${c.verdict}: ${c.title}`).join('<br>') || (r.untestable ? `untestable: ${r.untestable}` : '-');
    L.push(`### ${v.service}`, '');
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
  }

  if (s.stats.latency.length) {
    L.push(
      '## Latency per operation',
      '',
      mdTable(
        ['service', 'operation', 'replies', 'p50 (ms)', 'p95 (ms)', 'max (ms)'],
        s.stats.latency.map((l) => [l.service, l.operation, l.n, l.p50, l.p95, l.max]),
      ),
    );
  }
  if (s.stats.matchScores.length) {
    L.push(
      '',
      '## Match scores of search results',
      '',
      mdTable(
        ['service', 'results', 'min', 'median', 'mean', 'max', 'histogram (0.0-0.1 ... 0.9-1.0)'],
        s.stats.matchScores.map((m) => [m.service, m.n, m.min, m.p50, m.mean, m.max, m.histogram.join(' ')]),
      ),
    );
  }
  if (s.lags.length) {
    L.push(
      '',
      '## Reads that lagged behind writes',
      '',
      mdTable(
        ['check', 'read', 'lag (ms)'],
        s.lags.map((l) => [l.checkId, l.what, l.ms]),
      ),
    );
  }
  if (s.cleanup) {
    const c = s.cleanup;
    L.push(
      '',
      '## Cleanup',
      '',
      `Sources: ${c.sources.deleted} hard-deleted, ${c.sources.alreadyGone} already gone, of ${c.sources.attempted}. Relationships: ${c.relationships.deleted} deleted, ${c.relationships.alreadyGone} already gone, of ${c.relationships.attempted}. Failures: ${c.failures.length}.`,
    );
    for (const f of c.failures) L.push(`- ${f.service} ${f.what}: ${cell(f.reason)}`);
  }
  L.push('', `<details><summary>Profile used</summary>`, '', fence(JSON.stringify(run.profile, null, 2), 'json'), '', '</details>');
  return `${L.join('\n')}\n`;
}

/**
 * Coverage by category (specs/common/categories.ts): per requirement in scope whose sentence implies
 * categories, those the run's checks reached and those they did not, with why a run may not reach one.
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
    `The multiplicities and boundaries each requirement's sentence implies: ${reached} of ${all} reached by this run's checks.`,
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
