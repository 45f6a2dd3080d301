/**
 * report.html: one self-contained file per run (inline CSS, inline SVG charts and state
 * diagrams, one small inline script for the filter, no external resource), so it opens offline
 * from an artifact download. Every text from the run is escaped (html-kit.ts `e`).
 *
 * Top to bottom: the verdict, a table of contents, the filter (verdict and service; hidden when
 * scripts are off, and the page reads the same without it), the failing checks first (by cause:
 * one heading per cause, its root cause first, the same cause and what failed downstream of it
 * after it, gating ones first: report/failure-order.ts, html-failure.ts), the gate with links to its failures, the run, one section per
 * service (state diagram, requirements, coverage: html-service.ts), pictures, latency, match
 * scores, lagging reads, cleanup, the profile.
 *
 * Stable anchors: #verdict, #toc, #filter, #failures, #gate, #run, #services, #service-<service>,
 * #state-diagram-<service>, #requirements-<service>, #coverage-<service>, #charts, #latency,
 * #scores, #lags, #transport, #cleanup, #profile; #cause-<n> per cause, #check-<check ID> per failing check, #req-<ID> per requirement.
 */
import { createHash } from 'node:crypto';
import { SERVICES } from '../specs/services.js';
import type { ServiceName } from '../specs/common/model.js';
import type { Charts } from './charts.js';
import { COVERAGE_DEFINITION, coverageText } from './coverage-text.js';
import { failureHtml } from './html-failure.js';
import { CSS, badge, checkAnchor, e, table, td } from './html-kit.js';
import { serviceHtml } from './html-service.js';
import type { TransitionView } from './state-diagram.js';
import { gateSentence, headline } from './headline.js';
import { expiredText } from './known-failures.js';
import type { Summary } from './summary.js';
import { targetStatement } from './target.js';
import { duration, failureViews, safeRun, serviceViews, verdictCounts } from './view.js';

export type Diagrams = Record<string, { svg: string; views: TransitionView[] }>;

/** The filter: shows only elements whose data-verdict and data-service are ticked. */
const FILTER_SCRIPT = `(()=>{const f=document.getElementById('filter');if(!f)return;f.hidden=false;const on=n=>new Set([...f.querySelectorAll('input[name='+n+']:checked')].map(i=>i.value));const known=new Set([...f.querySelectorAll('input[name=verdict]')].map(i=>i.value));const apply=()=>{const v=on('verdict'),s=on('service');for(const el of document.querySelectorAll('[data-verdict],[data-service]')){const d=el.dataset;const hide=(d.verdict&&known.has(d.verdict)&&!v.has(d.verdict))||(d.service&&!s.has(d.service));el.classList.toggle('filtered',Boolean(hide))}};f.addEventListener('change',apply);apply()})();`;
const SCRIPT_HASH = `sha256-${createHash('sha256').update(FILTER_SCRIPT).digest('base64')}`;
const VERDICTS = ['fail', 'error', 'skip', 'pass', 'omit'] as const;

function filterForm(services: string[]): string {
  const box = (name: string, value: string) =>
    `<label><input type="checkbox" name="${name}" value="${e(value)}" checked> ${e(value)}</label>`;
  return `<form id="filter" hidden aria-label="Filter"><fieldset><legend>Verdict</legend>${VERDICTS.map((v) => box('verdict', v)).join('')}</fieldset><fieldset><legend>Service</legend>${services.map((s) => box('service', s)).join('')}</fieldset></form>`;
}

export function reportHtml(s: Summary, folder: string, charts: Charts, diagrams: Diagrams = {}): string {
  const run = safeRun(s);
  const g = s.gate;
  const failures = failureViews(s, folder);
  const services = serviceViews(s);
  const out: string[] = [];
  const deployment =
    g.deployment ??
    (run.embedded
      ? 'embedded reference'
      : run.targets
          .filter((t) => t.baseUrl)
          .map((t) => t.baseUrl)
          .join(', '));
  out.push(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`,
  );
  out.push(
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src '${SCRIPT_HASH}'">`,
  );
  out.push(`<title>Conformance run ${e(run.runId)}: ${e(headline(s))}</title><style>${CSS}</style></head><body>`);
  out.push(`<header class="verdict ${e(g.verdict)}" id="verdict"><h1>Conformance run ${e(run.runId)}: ${e(headline(s))}</h1>`);
  out.push(`<div id="target">${e(targetStatement(run))}</div>`);
  out.push(
    `<div class="facts">${e(deployment)} · seed ${e(run.seed)} · ${e(duration(run.durationMs))} · ${s.totals.checks} checks: ${s.totals.pass} pass, ${s.totals.fail} fail, ${s.totals.error} error, ${s.totals.skip} skip, ${s.totals.omit} omit</div></header>`,
  );

  // Table of contents (sticky)
  const toc = [
    `<a href="#failures"${failures.length ? ' class="fails"' : ''}>Failing checks (${failures.length})</a>`,
    '<a href="#gate">Gate</a>',
    '<a href="#run">Run</a>',
    ...services.map((v) => {
      const bad = v.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error').length;
      return `<a href="#service-${e(v.service)}"${bad ? ' class="fails"' : ''}>${e(v.service)}${bad ? ` (${bad} failing)` : ''}</a>`;
    }),
    '<a href="#charts">Pictures</a>',
    '<a href="#latency">Latency</a>',
    '<a href="#scores">Match scores</a>',
    ...(s.transport ? ['<a href="#transport">Transport</a>'] : []),
    ...(s.cleanup ? ['<a href="#cleanup">Cleanup</a>'] : []),
    '<a href="#profile">Profile</a>',
  ];
  out.push(`<nav id="toc" aria-label="Contents">${toc.join('')}</nav><main>`);
  out.push(filterForm(services.map((v) => v.service)));

  // Failing checks first, by cause (report/failure-order.ts): one heading per cause, its root first.
  out.push(`<section id="failures"><h2>Failing checks (${failures.length})${failures.length > 1 ? ', root causes first' : ''}</h2>`);
  if (!failures.length) out.push('<p>No check failed or errored.</p>');
  const titles = new Map(failures.map((f) => [f.check.checkId, f.check.title]));
  let cause = 0;
  for (const f of failures) {
    if (f.place.role === 'root') {
      const n = 1 + f.place.followers;
      const rule = f.rules.find((r) => r.id === f.place.requirement);
      out.push(
        `<h3 class="cause" id="cause-${++cause}">Cause ${cause}: <a href="#req-${e(f.place.requirement)}">${e(f.place.requirement)}</a>${rule ? ` <span class="muted">(${e(rule.level)})</span>` : ''}${f.place.operation ? ` at ${e(f.place.operation)}` : ''} · ${n} failing check${n > 1 ? 's' : ''}${f.gate === 'gating' ? '' : ` · ${e(f.gate)}`}</h3>`,
      );
    }
    out.push(failureHtml(f, titles));
  }
  out.push('</section>');

  // Gate, its entries linked to their failures
  const link = (id: string) => `<a href="#${e(checkAnchor(id))}"><code>${e(id)}</code></a>`;
  out.push(`<section id="gate"><h2>Gate: ${badge(g.verdict)}</h2>`);
  out.push(
    `<p>${e(gateSentence(s))}${g.knownFailuresFile ? ` Known failures from <code>${e(g.knownFailuresFile)}</code>${g.deployment ? ` (deployment ${e(g.deployment)})` : ''}.` : ' No known-failures file.'}</p>`,
  );
  const list = (id: string, title: string, rows: string[]) => {
    if (rows.length)
      out.push(
        `<div id="${id}"><h3>${e(title)} (${rows.length})</h3><ul class="compact">${rows.map((r) => `<li>${r}</li>`).join('')}</ul></div>`,
      );
  };
  list('gate-gating', 'Gating failures', g.gating.map(link));
  list('gate-incomplete', 'Could not judge (the deployment did not answer; the run is incomplete)', (g.incomplete ?? []).map(link));
  list('gate-expect-only', 'Failures of EXPECT requirements only (reported, not gating)', g.expectOnly.map(link));
  list(
    'gate-known',
    'Known failures (expected)',
    g.expected.map((x) => `${link(x.checkId)} via ${e(x.entry)}: ${e(x.reason)}${x.ticket ? ` (ticket ${e(x.ticket)})` : ''}`),
  );
  list(
    'gate-expired',
    'Expired known failures: they gate again',
    (g.expired ?? []).map((x) => e(expiredText(x))),
  );
  list(
    'gate-pending',
    'Pending checks (not yet passed on this deployment)',
    g.pending.map((x) => `${link(x.checkId)}: ${e(x.reason)}`),
  );
  list(
    'gate-unexpected-passes',
    'Unexpected passes: remove these from the known-failures list',
    g.unexpectedPasses.map(
      (x) =>
        `<code>${e(x.entry)}</code>: every check covering it passed (${x.checks
          .slice(0, 5)
          .map((id) => `<code>${e(id)}</code>`)
          .join(', ')}${x.checks.length > 5 ? ', ...' : ''}); listed because: ${e(x.reason)}`,
    ),
  );
  list(
    'gate-graduated',
    'Pending checks that passed for the first time (they gate from now on)',
    g.graduated.map((id) => `<code>${e(id)}</code>`),
  );
  out.push('</section>');

  // Run
  out.push(`<section id="run"><h2>Run</h2>`);
  out.push(
    table(
      ['run id', 'seed', 'started', 'finished', 'duration'],
      [[td(e(run.runId)), td(e(run.seed)), td(e(run.startedAt)), td(e(run.finishedAt)), td(e(duration(run.durationMs)))]],
    ),
  );
  if (run.shards?.length)
    out.push(
      `<p>Merged from ${run.shards.length} shards: ${run.shards.map((x) => `<code>${e(x.runId)}</code>${x.shard ? ` (${e(x.shard)})` : ''}`).join(', ')}</p>`,
    );
  out.push(
    table(
      ['service', 'target', 'auth', 'checks', 'scope', 'requirements with a check'],
      run.targets.map((t) => {
        const c = s.coverage[t.service];
        const n = verdictCounts(s.checks.filter((x) => x.service === t.service));
        const scope = !c
          ? '-'
          : c.scope === 'none'
            ? 'not run'
            : c.scope === 'part'
              ? `part (${c.notRun.length} requirements not run)`
              : c.scope;
        return [
          td(t.status === 'not configured' ? e(t.service) : `<a href="#service-${e(t.service)}">${e(t.service)}</a>`),
          td(
            t.status === 'not configured'
              ? '<span class="muted">not configured</span>'
              : `${e(t.status)} <code>${e(`${t.baseUrl ?? ''}${t.servicePath ?? ''}`)}</code>`,
          ),
          td(e(t.auth ?? '-')),
          td(`${n.pass} pass, ${n.fail} fail, ${n.error} error, ${n.skip} skip, ${n.omit} omit`),
          td(e(scope)),
          td(c && c.scope !== 'none' ? e(coverageText(c, s).replace(/^requirements with a check /, '')) : '-'),
        ];
      }),
    ),
  );
  out.push(`<p class="muted" id="coverage-definition">${e(COVERAGE_DEFINITION)}</p>`);
  out.push(
    `<p class="muted">Replay this run's data with <code>CONFORMANCE_SEED=${e(run.seed)}</code>${run.faults?.length ? ` (embedded reference with <code>REFERENCE_FAULTS=${e(run.faults.join(','))}</code>)` : ''}. Credentials are never written to a report.</p></section>`,
  );

  // Services
  out.push(
    `<section id="services"><h2>Services</h2><p class="muted">One section per service the run was pointed at: its state diagram, the requirements that need attention, the passing ones folded, and coverage within the run's selection.</p></section>`,
  );
  for (const v of services)
    out.push(serviceHtml(v, s.coverage[v.service], diagrams[v.service], SERVICES[v.service as ServiceName]?.states.source));

  // Pictures (SVG from vega, inline)
  const figs = [
    ['chart-outcomes', 'Check outcomes per service', charts.outcomes],
    ['chart-latency', 'Latency per operation, p50 to p95 (symmetric log scale)', charts.latency],
    ['chart-scores', 'Match-score distribution of search results (symmetric log scale)', charts.matchScores],
  ].filter((f) => f[2]);
  out.push(
    `<section id="charts"><h2>Pictures</h2><div class="charts">${figs.map(([id, cap, svg]) => `<figure id="${id}">${svg}<figcaption class="muted">${e(cap)}</figcaption></figure>`).join('')}</div></section>`,
  );

  // Figures
  out.push(`<section id="latency"><h2>Latency per operation</h2>`);
  out.push(
    s.stats.latency.length
      ? `<details><summary>${s.stats.latency.length} operations</summary>${table(
          ['service', 'operation', 'replies', 'p50 (ms)', 'p95 (ms)', 'max (ms)'],
          s.stats.latency.map((l) => [td(e(l.service)), td(e(l.operation)), td(e(l.n)), td(e(l.p50)), td(e(l.p95)), td(e(l.max))]),
        )}</details>`
      : '<p>No exchange recorded.</p>',
  );
  out.push(`</section><section id="scores"><h2>Match scores of search results</h2>`);
  out.push(
    s.stats.matchScores.length
      ? table(
          ['service', 'results', 'min', 'median', 'mean', 'max', 'histogram 0.0-0.1 ... 0.9-1.0'],
          s.stats.matchScores.map((m) => [
            td(e(m.service)),
            td(e(m.n)),
            td(e(m.min)),
            td(e(m.p50)),
            td(e(m.mean)),
            td(e(m.max)),
            td(e(m.histogram.join(' '))),
          ]),
        )
      : '<p>No search result recorded.</p>',
  );
  out.push('</section>');
  if (s.lags.length)
    out.push(
      `<section id="lags"><h2>Reads that lagged behind writes</h2><details><summary>${s.lags.length} reads</summary>${table(
        ['check', 'read', 'lag (ms)'],
        s.lags.map((l) => [td(e(l.checkId)), td(e(l.what)), td(e(l.ms))]),
      )}</details></section>`,
    );
  const paced = Object.entries(s.transport ?? {});
  if (paced.length)
    out.push(
      `<section id="transport"><h2>Transport</h2><p>How each service answered "not now": throttled replies (HTTP 429, or 503 with Retry-After) pause its requests; repeated throttling lowers its in-flight bound and rate, which recover after a quiet spell.</p>${table(
        ['service', 'attempts', 'failed transiently (throttled)', 'paused', 'in flight: ceiling / lowest / final', 'rate: lowest / final'],
        paced.map(([service, f]) => [
          td(e(service)),
          td(e(f.attempts)),
          td(`${e(f.transientFailures)} (${e(f.throttled)})`),
          td(`${e((f.pausedMs / 1000).toFixed(1))} s`),
          td(`${e(f.bound.ceiling)} / ${e(f.bound.lowest)} / ${e(f.bound.final)}`),
          td(
            f.rate.lowest === undefined
              ? 'no limit'
              : `${e(f.rate.lowest)}/s / ${f.rate.final === undefined ? 'no limit' : `${e(f.rate.final)}/s`}`,
          ),
        ]),
      )}</section>`,
    );
  if (s.cleanup) {
    const c = s.cleanup;
    out.push(
      `<section id="cleanup"><h2>Cleanup</h2><p>Sources: ${c.sources.deleted} hard-deleted, ${c.sources.alreadyGone} already gone, of ${c.sources.attempted}. Relationships: ${c.relationships.deleted} deleted, ${c.relationships.alreadyGone} already gone, of ${c.relationships.attempted}. Failures: ${c.failures.length}.</p>`,
    );
    if (c.failures.length) out.push(`<ul>${c.failures.map((f) => `<li>${e(f.service)} ${e(f.what)}: ${e(f.reason)}</li>`).join('')}</ul>`);
    out.push('</section>');
  }
  out.push(
    `<section id="profile"><h2>Profile used</h2><details><summary>Deployment profile (JSON)</summary><pre>${e(JSON.stringify(run.profile, null, 2))}</pre></details></section>`,
  );
  out.push(
    `<footer class="muted">summary.json schemaVersion ${e(s.schemaVersion)}</footer></main><script>${FILTER_SCRIPT}</script></body></html>`,
  );
  return out.join('\n');
}
