/**
 * One service's section of report.html (anchor `service-<service>`, data-service for the filter): target, check counts,
 * coverage within the run's scope and the failed requirement IDs; the state diagram (states and transitions coloured by
 * verdict, from report/state-diagram.ts); the requirements that need attention (failed, errored, skipped, no check yet)
 * in a table; the passing ones, and those omitted, untestable or not run, folded in <details> per seed section. Each
 * requirement row has the anchor `req-<ID>` and data-verdict (its outcome) for the filter.
 */
import { type ServiceSituations, situationsHtml } from './situations.js';
import { coverageText } from './coverage-text.js';
import type { Summary } from './summary.js';
import { EDGE_COLOURS, type EdgeVerdict, type TransitionView } from './state-diagram.js';
import { badge, checkAnchor, e, table, td } from './html-kit.js';
import type { RequirementRow, SectionView, ServiceView } from './view.js';
import { verdictCounts } from './view.js';

type Row = SectionView['requirements'][number];
const ATTENTION = new Set(['fail', 'error', 'skip']);
const LEGEND: Array<[EdgeVerdict, string]> = [
  ['fail', 'a check failed'],
  ['error', 'a check could not judge'],
  ['pass', 'checks passed'],
  ['skip', 'only skipped or omitted'],
  ['none', 'no check exercised it'],
];

function checksCell(r: Row): string {
  if (!r.checkResults.length) return r.untestable ? `<span class="muted">${e(r.untestable)}</span>` : '-';
  return `<ul class="compact">${r.checkResults
    .map((c) => {
      const title = e(c.title);
      const linked =
        c.verdict === 'fail' || c.verdict === 'error' ? `<a href="#${e(checkAnchor(c.checkId))}">${title}</a>` : title;
      return `<li data-verdict="${e(c.verdict)}">${badge(c.verdict)} ${linked}</li>`;
    })
    .join('')}</ul>`;
}

/** The categories of a requirement (specs/common/categories.ts), reached or not by this run's checks. */
function categoriesLine(r: Row): string {
  if (!r.categories?.length) return '';
  const items = r.categories.map((c) =>
    c.by.length
      ? `<span title="${e(c.what)}">✓ ${e(c.id)}</span>`
      : `<span class="muted" title="${e(c.what)}${c.reach ? `; ${e(c.reach)}` : ''}">✗ ${e(c.id)}</span>`,
  );
  return `<br><span class="categories">categories: ${items.join(', ')}</span>`;
}

function rows(list: Row[], service: string) {
  return list.map((r) => ({
    attrs: `id="req-${e(r.id)}" data-verdict="${e(r.outcome)}" data-service="${e(service)}"`,
    cells: [
      td(`<strong>${e(r.id)}</strong>`),
      td(e(r.level)),
      td(badge(r.outcome)),
      td(`${e(r.text)}<br><span class="muted">${e(r.section)}</span>${categoriesLine(r)}`),
      td(checksCell(r)),
    ],
  }));
}

const HEAD = ['requirement', 'level', 'outcome', 'text (seed section)', 'checks'];

/** Requirements folded per seed section, with a count in the summary line. */
function folded(
  title: string,
  sections: SectionView[],
  keep: (r: Row) => boolean,
  service: string,
  cls: string,
): string {
  const parts = sections
    .map((s) => ({ section: s.section, list: s.requirements.filter(keep) }))
    .filter((p) => p.list.length);
  const n = parts.reduce((k, p) => k + p.list.length, 0);
  if (!n) return '';
  return `<details class="${cls}"><summary>${n} ${e(title)}</summary>${table(
    HEAD,
    parts.flatMap((p) => [[`<th colspan="5">${e(p.section)}</th>`], ...rows(p.list, service)]),
  )}</details>`;
}

function diagram(service: string, drawn?: { svg: string; views: TransitionView[] }, source?: string): string {
  if (!drawn) return '';
  const legend = LEGEND.map(
    ([v, words]) => `<span><i class="${v}" style="border-color:${EDGE_COLOURS[v]}"></i>${e(words)}</span>`,
  ).join('');
  const failing = drawn.views.filter((v) => v.verdict === 'fail').map((v) => v.transition.operation);
  return (
    `<figure class="state-diagram" id="state-diagram-${e(service)}">${drawn.svg}<figcaption ` +
    `class="legend">${legend}<br><span class="muted">State table of ${e(source ?? service)}; an edge links to its ` +
    `first requirement.${failing.length ? ` Failing transitions: ${e(failing.join(', '))}.` : ''}</span></figcaption></figure>`
  );
}

export function serviceHtml(
  v: ServiceView,
  coverage: Summary['coverage'][string] | undefined,
  drawn?: { svg: string; views: TransitionView[] },
  source?: string,
  situations?: ServiceSituations,
): string {
  const out: string[] = [];
  const n = verdictCounts(v.checks);
  const failed = [
    ...new Set(
      v.checks
        .filter((c) => c.verdict === 'fail')
        .flatMap((c) => (c.failedRequirements.length ? c.failedRequirements : c.verifies)),
    ),
  ].sort();
  out.push(`<section class="service" id="service-${e(v.service)}" data-service="${e(v.service)}">`);
  out.push(`<h2>${e(v.service)} ${v.where ? `<code class="muted">${e(v.where)}</code>` : ''}</h2>`);
  const scope =
    v.scope === 'none'
      ? 'not run: no test file of it was selected'
      : v.scope === 'part'
        ? 'part of its checks selected (the others are "not run")'
        : 'every check selected';
  out.push(
    `<p>${v.checks.length} checks: ${n.pass} pass, ${n.fail} fail, ${n.error} error, ${n.skip} skip, ${n.omit} ` +
      `omit; ${scope}${coverage ? `; ${e(coverageText(coverage))} (<a href="#coverage-definition">what it counts</a>)` : ''}.</p>`,
  );
  if (failed.length)
    out.push(`<p>Failed requirements: ${failed.map((id) => `<a href="#req-${e(id)}">${e(id)}</a>`).join(', ')}</p>`);
  out.push(diagram(v.service, drawn, source));
  out.push(situationsHtml(situations));
  const all = v.sections.flatMap((s) => s.requirements);
  const attention = all.filter((r) => ATTENTION.has(r.outcome));
  out.push(`<div class="requirements" id="requirements-${e(v.service)}">`);
  out.push(
    attention.length
      ? `<h3>Requirements that need attention (${attention.length})</h3>${table(HEAD, rows(attention, v.service))}`
      : '<p>Every requirement in scope held.</p>',
  );
  out.push(folded('passing requirements', v.sections, (r) => r.outcome === 'pass', v.service, 'passing'));
  out.push(
    folded(
      'requirements with no check yet, omitted, untestable or not run',
      v.sections,
      (r) => !ATTENTION.has(r.outcome) && r.outcome !== 'pass',
      v.service,
      'other',
    ),
  );
  out.push('</div>');
  out.push(coverageHtml(v));
  out.push('</section>');
  return out.join('\n');
}

function coverageHtml(v: ServiceView): string {
  const list = (rs: RequirementRow[], what: (r: RequirementRow) => string) =>
    `<ul class="compact">${rs.map((r) => `<li><a href="#req-${e(r.id)}">${e(r.id)}</a> (${e(r.level)}): ${e(what(r))}</li>`).join('')}</ul>`;
  const parts: string[] = [];
  parts.push(
    v.uncovered.length
      ? `<p>Requirements with no check yet (${v.uncovered.length}):</p>${list(v.uncovered, (r) => r.text)}`
      : v.scope === 'all'
        ? '<p>Every testable requirement has a check.</p>'
        : '',
  );
  if (v.untestable.length)
    parts.push(
      `<details><summary>${v.untestable.length} untestable by a black-box ` +
        `suite</summary>${list(v.untestable, (r) => r.untestable ?? '')}</details>`,
    );
  if (v.notRun.length)
    parts.push(
      `<details><summary>${v.notRun.length} not run: outside this run's ` +
        `selection</summary>${list(v.notRun, (r) => r.text)}</details>`,
    );
  return `<div class="coverage" id="coverage-${e(v.service)}"><h3>Coverage</h3>${parts.join('')}</div>`;
}
