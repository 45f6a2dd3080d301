/**
 * report.html: one self-contained file per run (inline CSS, inline SVG charts and state diagrams, one small inline
 * script for the filter, no external resource), so it opens offline from an artifact download. Every text from the run
 * is escaped (html-kit.ts `e`).
 *
 * Top to bottom: the verdict, a table of contents, the filter (verdict and service; hidden when scripts are off, and
 * the page reads the same without it), the failing checks first (by cause: one heading per cause, its root cause first,
 * the same cause and what failed downstream of it after it, gating ones first: report/failure-order.ts,
 * html-failure.ts), the gate with links to its failures, the run, one section per service (state diagram, requirements,
 * coverage: html-service.ts), pictures, latency, match scores, lagging reads, transport, cleanup (html-figures.ts), the
 * profile.
 *
 * Stable anchors: #verdict, #toc, #filter, #failures, #gate, #run, #services, #service-<service>,
 * #state-diagram-<service>, #requirements-<service>, #coverage-<service>, #charts, #latency,
 * #scores, #lags, #transport, #cleanup, #profile; #cause-<n> per cause, #check-<check ID> per failing check, #req-<ID>
 * per requirement.
 */
import { createHash } from 'node:crypto';
import { SERVICES } from '../specs/services.js';
import type { ServiceName } from '../specs/common/model.js';
import type { Charts } from './charts.js';
import { COVERAGE_DEFINITION, coverageText } from './coverage-text.js';
import { chartsHtml, cleanupHtml, lagsHtml, statsHtml, transportHtml } from './html-figures.js';
import { failureHtml } from './html-failure.js';
import { gateWords } from './failure-order.js';
import { CSS, badge, checkAnchor, e, table, td } from './html-kit.js';
import { serviceHtml } from './html-service.js';
import type { TransitionView } from './state-diagram.js';
import { gateLists, gateSentence, headline } from './headline.js';
import { drawnVerdict, exitCodeOf } from './outcome.js';
import type { Summary } from './summary.js';
import { authText, targetStatement } from './target.js';
import {
  type FailureView,
  type ServiceView,
  duration,
  failureViews,
  safeRun,
  serviceViews,
  verdictCounts,
} from './view.js';

export type Diagrams = Record<string, { svg: string; views: TransitionView[] }>;

/** The run description as reports show it (report/view.ts safeRun: no credentials). */
type SafeRun = ReturnType<typeof safeRun>;

/** The filter: shows only elements whose data-verdict and data-service are ticked. */
const FILTER_SCRIPT =
  `(()=>{const f=document.getElementById('filter');if(!f)return;f.hidden=false;const on=n=>new ` +
  `Set([...f.querySelectorAll('input[name='+n+']:checked')].map(i=>i.value));const known=new ` +
  `Set([...f.querySelectorAll('input[name=verdict]')].map(i=>i.value));const apply=()=>{const ` +
  `v=on('verdict'),s=on('service');for(const el of ` +
  `document.querySelectorAll('[data-verdict],[data-service]')){const d=el.dataset;const ` +
  `hide=(d.verdict&&known.has(d.verdict)&&!v.has(d.verdict))||(d.service&&!s.has(d.service));el.classList.toggle('filtered',Boolean(hide))}};f.addEventListener('change',apply);apply()})();`;
const SCRIPT_HASH = `sha256-${createHash('sha256').update(FILTER_SCRIPT).digest('base64')}`;
const VERDICTS = ['fail', 'error', 'skip', 'pass', 'omit'] as const;

function filterForm(services: string[]): string {
  const box = (name: string, value: string) =>
    `<label><input type="checkbox" name="${name}" value="${e(value)}" checked> ${e(value)}</label>`;
  return (
    `<form id="filter" hidden ` +
    `aria-label="Filter"><fieldset><legend>Verdict</legend>${VERDICTS.map((v) => box('verdict', v)).join('')}</fieldset><fieldset><legend>Service</legend>${services.map((s) => box('service', s)).join('')}</fieldset></form>`
  );
}

/**
 * report.html of a run: its summary, run folder (where the failing checks' exchanges are read), charts and state
 * diagrams (report/write.ts draws them) in, the page out. Each section is a function returning the page's chunks,
 * joined here with line breaks.
 */
export function reportHtml(s: Summary, folder: string, charts: Charts, diagrams: Diagrams = {}): string {
  const run = safeRun(s);
  const failures = failureViews(s, folder);
  const services = serviceViews(s);
  return [
    ...headHtml(s, run),
    tocHtml(s, failures, services),
    filterForm(services.map((v) => v.service)),
    ...failuresHtml(failures),
    ...gateHtml(s),
    ...runHtml(s, run),
    ...servicesHtml(s, services, diagrams),
    ...chartsHtml(charts),
    ...statsHtml(s),
    ...lagsHtml(s),
    ...transportHtml(s),
    ...cleanupHtml(s),
    `<section id="profile"><h2>Profile used</h2><details><summary>Deployment profile ` +
      `(JSON)</summary><pre>${e(JSON.stringify(run.profile, null, 2))}</pre></details></section>`,
    `<footer class="muted">summary.json schemaVersion ` +
      `${e(s.schemaVersion)}</footer></main><script>${FILTER_SCRIPT}</script></body></html>`,
  ].join('\n');
}

/**
 * The page's head (its script allowed by hash alone: nothing else runs or loads) and the verdict header (#verdict):
 * headline, target, deployment, seed, duration and totals.
 */
export function headHtml(s: Summary, run: SafeRun): string[] {
  const g = s.gate;
  const deployment =
    g.deployment ??
    (run.embedded
      ? 'embedded reference'
      : run.targets
          .filter((t) => t.baseUrl)
          .map((t) => t.baseUrl)
          .join(', '));
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
      `content="width=device-width,initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src ` +
      `data:; script-src '${SCRIPT_HASH}'">`,
    `<title>Conformance run ${e(run.runId)}: ${e(headline(s))}</title><style>${CSS}</style></head><body>`,
    `<header class="verdict ${e(drawnVerdict(s))}" id="verdict">` +
      `<h1>Conformance run ${e(run.runId)}: ${e(headline(s))}</h1>`,
    `<div id="target">${e(targetStatement(run))}</div>`,
    `<div class="facts">${e(deployment)} · seed ${e(run.seed)} · ${e(duration(run.durationMs))} · ` +
      `${s.totals.checks} checks: ${s.totals.pass} pass, ${s.totals.fail} fail, ${s.totals.error} error, ` +
      `${s.totals.skip} skip, ${s.totals.omit} omit</div></header>`,
  ];
}

/** The sticky table of contents (#toc), opening <main>: failing checks and services with failures are marked. */
export function tocHtml(s: Summary, failures: FailureView[], services: ServiceView[]): string {
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
  return `<nav id="toc" aria-label="Contents">${toc.join('')}</nav><main>`;
}

/**
 * The "Failing checks" section (#failures) of the failures given (report/view.ts failureViews, ordered by cause): one
 * heading per cause (#cause-<n>) above its root, then each failure (html-failure.ts).
 */
export function failuresHtml(failures: FailureView[]): string[] {
  const out = [
    `<section id="failures"><h2>Failing checks ` +
      `(${failures.length})${failures.length > 1 ? ', root causes first' : ''}</h2>`,
  ];
  if (!failures.length) out.push('<p>No check failed or errored.</p>');
  const titles = new Map(failures.map((f) => [f.check.checkId, f.check.title]));
  let cause = 0;
  for (const f of failures) {
    if (f.place.role === 'root') out.push(causeHeadingHtml(f, ++cause));
    out.push(failureHtml(f, titles));
  }
  out.push('</section>');
  return out;
}

/**
 * The heading of cause number `n` (#cause-<n>), above its root failure: the requirement (linked), where it broke, how
 * many checks it failed.
 */
export function causeHeadingHtml(f: FailureView, n: number): string {
  const checks = 1 + f.place.followers;
  const rule = f.rules.find((r) => r.id === f.place.requirement);
  return (
    `<h3 class="cause" id="cause-${n}">Cause ${n}: <a ` +
    `href="#req-${e(f.place.requirement)}">${e(f.place.requirement)}</a>${rule ? ` <span class="muted">(${e(rule.level)})</span>` : ''}${f.place.operation ? ` at ${e(f.place.operation)}` : ''} ` +
    `· ${checks} failing check${checks > 1 ? 's' : ''}${f.gate === 'gating' ? '' : ` · ${e(gateWords(f.gate))}`}</h3>`
  );
}

/**
 * The Gate heading's badge: the run's verdict (report/outcome.ts drawnVerdict), so an interrupted
 * run reads "interrupted" and is never drawn as a pass, whatever its ended checks' gate says.
 */
function gateBadge(s: Summary): string {
  const drawn = drawnVerdict(s);
  const words: Record<ReturnType<typeof drawnVerdict>, string> = {
    pass: 'pass',
    fail: 'fail',
    incomplete: 'incomplete',
    interrupted: `interrupted (exit code ${exitCodeOf(s)})`,
    leftovers: `records left (exit code ${exitCodeOf(s)})`,
    'nothing-ran': 'no check ran',
  };
  return badge(drawn, words[drawn]);
}

/**
 * The "Gate" section (#gate) of Summary.gate: its sentence and known-failures file, then each non-empty list
 * (#gate-<list>), its checks linked to their failures.
 */
export function gateHtml(s: Summary): string[] {
  const g = s.gate;
  const link = (id: string) => `<a href="#${e(checkAnchor(id))}"><code>${e(id)}</code></a>`;
  const out = [
    `<section id="gate"><h2>Gate: ${gateBadge(s)}</h2>`,
    `<p>${e(gateSentence(s))}${g.knownFailuresFile ? ` Known failures from <code>${e(g.knownFailuresFile)}</code>${g.deployment ? ` (deployment ${e(g.deployment)})` : ''}.` : ' No known-failures file.'}</p>`,
  ];
  const code = (id: string) => `<code>${e(id)}</code>`;
  for (const { id, title, rows } of gateLists(g, { check: link, code, text: e, plain: e, passEntry: code }))
    if (rows.length)
      out.push(
        `<div id="gate-${id}"><h3>${e(title)} (${rows.length})</h3><ul ` +
          `class="compact">${rows.map((r) => `<li>${r}</li>`).join('')}</ul></div>`,
      );
  out.push('</section>');
  return out;
}

/**
 * The "Run" section (#run): its ID, seed and times, the shards a merged run joins, the targets table, what coverage
 * means, and how to replay the run's data.
 */
export function runHtml(s: Summary, run: SafeRun): string[] {
  const out = [
    `<section id="run"><h2>Run</h2>`,
    table(
      ['run id', 'seed', 'started', 'finished', 'duration'],
      [
        [
          td(e(run.runId)),
          td(e(run.seed)),
          td(e(run.startedAt)),
          td(e(run.finishedAt)),
          td(e(duration(run.durationMs))),
        ],
      ],
    ),
  ];
  if (run.shards?.length)
    out.push(
      `<p>Merged from ${run.shards.length} shards: ` +
        `${run.shards.map((x) => `<code>${e(x.runId)}</code>${x.shard ? ` (${e(x.shard)})` : ''}`).join(', ')}</p>`,
    );
  out.push(
    targetsHtml(s, run),
    `<p class="muted" id="coverage-definition">${e(COVERAGE_DEFINITION)}</p>`,
    `<p class="muted">Replay this run's data with ` +
      `<code>CONFORMANCE_SEED=${e(run.seed)}</code>${run.faults?.length ? ` (embedded reference with <code>REFERENCE_FAULTS=${e(run.faults.join(','))}</code>)` : ''}. ` +
      `Credentials are never written to a report.</p></section>`,
  );
  return out;
}

/**
 * The table of the run's targets: one row per service (linked to its section when configured) with its target, auth,
 * check counts, scope and coverage.
 */
export function targetsHtml(s: Summary, run: SafeRun): string {
  return table(
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
        td(e(authText(t))),
        td(`${n.pass} pass, ${n.fail} fail, ${n.error} error, ${n.skip} skip, ${n.omit} omit`),
        td(e(scope)),
        td(c && c.scope !== 'none' ? e(coverageText(c, s).replace(/^requirements with a check /, '')) : '-'),
      ];
    }),
  );
}

/**
 * The "Services" intro (#services) and one section per service the run was pointed at (html-service.ts), with its state
 * diagram when drawn.
 */
export function servicesHtml(s: Summary, services: ServiceView[], diagrams: Diagrams): string[] {
  return [
    `<section id="services"><h2>Services</h2><p class="muted">One section per service the run was pointed at: ` +
      `its state diagram, the requirements that need attention, the passing ones folded, and coverage within the ` +
      `run's selection.</p></section>`,
    ...services.map((v) =>
      serviceHtml(
        v,
        s.coverage[v.service],
        diagrams[v.service],
        SERVICES[v.service as ServiceName]?.states.source,
        s.situations?.[v.service],
      ),
    ),
  ];
}
