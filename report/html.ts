/**
 * report.html: one self-contained file per run (inline CSS, inline SVG charts, no script, no
 * external resource), so it opens offline from an artifact download. Every text from the run
 * (titles, messages, bodies) is escaped with `he`.
 * Stable anchors for tests and links: #run, #gate, #charts, #failures, #coverage, #requirements,
 * #latency, #scores, #cleanup, #profile; each requirement row has id "req-<ID>".
 */
import he from 'he';
import type { Charts } from './charts.js';
import type { Summary } from './summary.js';
import { targetStatement } from './target.js';
import { duration, failureViews, safeRun, serviceViews, verdictCounts } from './view.js';

const e = (s: unknown) => he.escape(String(s ?? ''));
const MAX_BODY = 20000;
const clip = (text: string) => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}\n... [${text.length - MAX_BODY} more characters]` : text);
const badge = (v: string) => `<span class="badge ${e(v)}">${e(v)}</span>`;

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1b1f23;background:#f6f8fa}
main{max-width:1100px;margin:0 auto;padding:24px}
header.verdict{padding:16px 24px;color:#fff}header.pass{background:#2e7d32}header.fail{background:#c62828}
h1{margin:0;font-size:22px}h2{border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 16px 16px;margin:16px 0}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f6}pre{background:#f6f8fa;border:1px solid #d0d7de;padding:8px;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-word}
.badge{display:inline-block;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;background:#6e7781}
.badge.pass{background:#2e7d32}.badge.fail,.badge.gating{background:#c62828}.badge.error{background:#ef6c00}.badge.skip{background:#9e9e9e}
.badge.omit,.badge.untestable{background:#90a4ae}.badge.uncovered{background:#8e24aa}.badge.known,.badge.pending,.badge.expect-only{background:#5c6bc0}
.charts{display:flex;flex-wrap:wrap;gap:16px}.charts figure{margin:0}.muted{color:#57606a}details{margin:6px 0}summary{cursor:pointer}
.failure{border-left:4px solid #c62828;padding-left:12px;margin:16px 0}.failure.known,.failure.pending,.failure.expect-only{border-color:#5c6bc0}
`;

function table(head: string[], rows: string[][]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`;
}
const td = (html: string) => `<td>${html}</td>`;

export function reportHtml(s: Summary, folder: string, charts: Charts): string {
  const run = safeRun(s);
  const g = s.gate;
  const out: string[] = [];
  out.push(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`);
  out.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  out.push(`<title>Conformance run ${e(run.runId)}: ${g.verdict.toUpperCase()}</title><style>${CSS}</style></head><body>`);
  out.push(`<header class="verdict ${g.verdict}" id="verdict"><h1>Conformance run ${e(run.runId)}: ${g.verdict === 'pass' ? 'PASS' : 'FAIL'}</h1>`);
  out.push(`<div id="target">${e(targetStatement(run))}</div>`);
  out.push(`<div>${s.totals.checks} checks: ${s.totals.pass} pass, ${s.totals.fail} fail, ${s.totals.error} error, ${s.totals.skip} skip, ${s.totals.omit} omit${s.overall === 'incomplete' ? ' (incomplete)' : ''}</div></header><main>`);

  // Run
  out.push(`<section id="run"><h2>Run</h2>`);
  out.push(table(['run id', 'seed', 'started', 'finished', 'duration'], [[td(e(run.runId)), td(e(run.seed)), td(e(run.startedAt)), td(e(run.finishedAt)), td(e(duration(run.durationMs)))]]));
  if (run.shards?.length) out.push(`<p>Merged from ${run.shards.length} shards: ${run.shards.map((x) => `<code>${e(x.runId)}</code>${x.shard ? ` (${e(x.shard)})` : ''}`).join(', ')}</p>`);
  out.push(
    table(
      ['service', 'target', 'auth', 'checks', 'requirements covered', 'MUST covered'],
      run.targets.map((t) => {
        const c = s.coverage[t.service];
        const n = verdictCounts(s.checks.filter((x) => x.service === t.service));
        return [
          td(e(t.service)),
          td(t.status === 'not configured' ? '<span class="muted">not configured</span>' : `${e(t.status)} <code>${e(`${t.baseUrl ?? ''}${t.servicePath ?? ''}`)}</code>`),
          td(e(t.auth ?? '-')),
          td(`${n.pass} pass, ${n.fail} fail, ${n.error} error, ${n.skip} skip, ${n.omit} omit`),
          td(c ? `${c.covered}/${c.requirements - c.untestable}` : '-'),
          td(c ? `${c.mustCovered}/${c.must}` : '-'),
        ];
      }),
    ),
  );
  out.push(`<p class="muted">Replay this run's data with <code>CONFORMANCE_SEED=${e(run.seed)}</code>. Credentials are never written to a report.</p></section>`);

  // Gate
  out.push(`<section id="gate"><h2>Gate: ${badge(g.verdict)}</h2>`);
  out.push(`<p>${g.verdict === 'pass' ? 'Every MUST requirement checked held (exit code 0).' : `${g.gating.length} check(s) fail the gate (exit code 1).`}${g.knownFailuresFile ? ` Known failures from <code>${e(g.knownFailuresFile)}</code>${g.deployment ? ` (deployment ${e(g.deployment)})` : ''}.` : ' No known-failures file.'}</p>`);
  const list = (id: string, title: string, rows: string[]) => {
    if (rows.length) out.push(`<div id="${id}"><h3>${e(title)} (${rows.length})</h3><ul>${rows.map((r) => `<li>${r}</li>`).join('')}</ul></div>`);
  };
  list('gate-gating', 'Gating failures', g.gating.map((id) => `<code>${e(id)}</code>`));
  list('gate-expect-only', 'Failures of EXPECT requirements only (reported, not gating)', g.expectOnly.map((id) => `<code>${e(id)}</code>`));
  list('gate-known', 'Known failures (expected)', g.expected.map((x) => `<code>${e(x.checkId)}</code> via ${e(x.entry)}: ${e(x.reason)}`));
  list('gate-pending', 'Pending checks (not yet passed on this deployment)', g.pending.map((x) => `<code>${e(x.checkId)}</code>: ${e(x.reason)}`));
  list('gate-unexpected-passes', 'Unexpected passes: remove these from the known-failures list', g.unexpectedPasses.map((x) => `<code>${e(x.checkId)}</code> passed, listed as ${e(x.entry)}: ${e(x.reason)}`));
  list('gate-graduated', 'Pending checks that passed for the first time (they gate from now on)', g.graduated.map((id) => `<code>${e(id)}</code>`));
  out.push(`</section>`);

  // Charts (SVG from vega, inline)
  const figs = [
    ['chart-outcomes', 'Check outcomes per service', charts.outcomes],
    ['chart-latency', 'Latency per operation, p50 and p95', charts.latency],
    ['chart-scores', 'Match-score distribution of search results', charts.matchScores],
  ].filter((f) => f[2]);
  out.push(`<section id="charts"><h2>Pictures</h2><div class="charts">${figs.map(([id, cap, svg]) => `<figure id="${id}">${svg}<figcaption class="muted">${e(cap)}</figcaption></figure>`).join('')}</div></section>`);

  // Failures
  const failures = failureViews(s, folder);
  out.push(`<section id="failures"><h2>Failing checks (${failures.length})</h2>`);
  if (!failures.length) out.push('<p>No check failed or errored.</p>');
  for (const f of failures) {
    out.push(`<div class="failure ${f.gate}" id="check-${e(f.check.checkId)}"><h3>${badge(f.check.verdict)} ${badge(f.gate)} ${e(f.check.title)}</h3>`);
    out.push(`<p class="muted">Check <code>${e(f.check.checkId)}</code> in <code>${e(f.check.file)}</code>${f.reason ? `; listed: ${e(f.reason)}` : ''}</p>`);
    out.push(`<ul class="rules">${f.rules.map((r) => `<li><a href="#req-${e(r.id)}"><strong>${e(r.id)}</strong></a> (${e(r.level)}, ${e(r.section)}): ${e(r.text)}</li>`).join('')}</ul>`);
    out.push(`<pre class="message">${e(clip(f.check.message ?? f.check.note ?? '(no message)'))}</pre>`);
    for (const [i, { exchange: x, curl }] of f.exchanges.entries()) {
      const n = f.exchangesTotal - f.exchanges.length + i + 1;
      out.push(`<details class="exchange"${i === f.exchanges.length - 1 ? ' open' : ''}><summary>Exchange ${n} of ${f.exchangesTotal}: ${e(x.operation)} → ${x.error ? `no reply (${e(x.error)})` : `HTTP ${e(x.reply?.status)}`} in ${e(x.durationMs)} ms</summary>`);
      out.push(`<p>Replay (set the credential variables first):</p><pre class="curl">${e(curl)}</pre>`);
      out.push(`<p>Request ${e(x.method)} <code>${e(x.url)}</code></p><pre class="request">${e(clip(JSON.stringify({ headers: x.request.headers, body: x.request.body }, null, 2)))}</pre>`);
      if (x.reply) out.push(`<p>Reply HTTP ${e(x.reply.status)}</p><pre class="reply">${e(clip(JSON.stringify({ headers: x.reply.headers, body: x.reply.body ?? x.reply.text }, null, 2)))}</pre>`);
      out.push('</details>');
    }
    if (f.check.exchangesFile) out.push(`<p class="muted">All exchanges: <code>${e(f.check.exchangesFile)}</code></p>`);
    out.push('</div>');
  }
  out.push('</section>');

  // Coverage and requirements
  const services = serviceViews(s);
  out.push(`<section id="coverage"><h2>Coverage</h2>`);
  for (const v of services) {
    out.push(`<h3>${e(v.service)}</h3>`);
    out.push(v.uncovered.length ? `<p>Requirements with no check yet:</p><ul>${v.uncovered.map((r) => `<li><a href="#req-${e(r.id)}">${e(r.id)}</a> (${e(r.level)}): ${e(r.text)}</li>`).join('')}</ul>` : '<p>Every testable requirement has a check.</p>');
    if (v.untestable.length) out.push(`<p>Untestable by a black-box suite:</p><ul>${v.untestable.map((r) => `<li>${e(r.id)}: ${e(r.untestable)}</li>`).join('')}</ul>`);
  }
  out.push(`</section><section id="requirements"><h2>Requirements</h2>`);
  for (const v of services) {
    out.push(`<h3 class="service">${e(v.service)}${v.where ? ` <code class="muted">${e(v.where)}</code>` : ''}</h3>`);
    for (const sec of v.sections) {
      out.push(`<h4>${e(sec.section)}</h4>`);
      out.push(
        table(
          ['requirement', 'level', 'outcome', 'text', 'checks'],
          sec.requirements.map((r) => [
            `<td id="req-${e(r.id)}"><strong>${e(r.id)}</strong></td>`,
            td(e(r.level)),
            td(badge(r.outcome)),
            td(e(r.text)),
            td(r.checkResults.map((c) => `${badge(c.verdict)} ${e(c.title.replace(/ \[[^\]]*\]$/, ''))}`).join('<br>') || (r.untestable ? `<span class="muted">${e(r.untestable)}</span>` : '-')),
          ]),
        ),
      );
    }
  }
  out.push('</section>');

  // Figures
  out.push(`<section id="latency"><h2>Latency per operation</h2>`);
  out.push(s.stats.latency.length ? table(['service', 'operation', 'replies', 'p50 (ms)', 'p95 (ms)', 'max (ms)'], s.stats.latency.map((l) => [td(e(l.service)), td(e(l.operation)), td(e(l.n)), td(e(l.p50)), td(e(l.p95)), td(e(l.max))])) : '<p>No exchange recorded.</p>');
  out.push(`</section><section id="scores"><h2>Match scores of search results</h2>`);
  out.push(
    s.stats.matchScores.length
      ? table(['service', 'results', 'min', 'median', 'mean', 'max', 'histogram 0.0-0.1 ... 0.9-1.0'], s.stats.matchScores.map((m) => [td(e(m.service)), td(e(m.n)), td(e(m.min)), td(e(m.p50)), td(e(m.mean)), td(e(m.max)), td(e(m.histogram.join(' ')))]))
      : '<p>No search result recorded.</p>',
  );
  out.push('</section>');
  if (s.lags.length) out.push(`<section id="lags"><h2>Reads that lagged behind writes</h2>${table(['check', 'read', 'lag (ms)'], s.lags.map((l) => [td(e(l.checkId)), td(e(l.what)), td(e(l.ms))]))}</section>`);
  if (s.cleanup) {
    const c = s.cleanup;
    out.push(`<section id="cleanup"><h2>Cleanup</h2><p>Sources: ${c.sources.deleted} hard-deleted, ${c.sources.alreadyGone} already gone, of ${c.sources.attempted}. Relationships: ${c.relationships.deleted} deleted, ${c.relationships.alreadyGone} already gone, of ${c.relationships.attempted}. Failures: ${c.failures.length}.</p>`);
    if (c.failures.length) out.push(`<ul>${c.failures.map((f) => `<li>${e(f.service)} ${e(f.what)}: ${e(f.reason)}</li>`).join('')}</ul>`);
    out.push('</section>');
  }
  out.push(`<section id="profile"><h2>Profile used</h2><pre>${e(JSON.stringify(run.profile, null, 2))}</pre></section>`);
  out.push(`<footer class="muted">summary.json schemaVersion ${e(s.schemaVersion)}</footer></main></body></html>`);
  return out.join('\n');
}
