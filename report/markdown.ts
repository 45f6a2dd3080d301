/**
 * summary.md: the report as Markdown, for CI job summaries ($GITHUB_STEP_SUMMARY) and merge
 * requests. Same content as report.html without the pictures; long parts fold into <details>.
 */
import type { Summary } from './summary.js';
import { targetStatement } from './target.js';
import { duration, failureViews, safeRun, serviceViews, verdictCounts } from './view.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const fence = (text: string, lang = '') => {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
};
const MAX_BODY = 3000;
const clip = (text: string) => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}\n... [${text.length - MAX_BODY} more characters]` : text);

export function summaryMarkdown(s: Summary, folder: string): string {
  const run = safeRun(s);
  const g = s.gate;
  const L: string[] = [];
  L.push(`# Conformance run ${run.runId}: ${g.verdict === 'pass' ? 'PASS' : 'FAIL'}${s.overall === 'incomplete' ? ' (incomplete: some checks could not verify)' : ''}`, '');
  L.push(`**${targetStatement(run)}**`, '');
  L.push(
    `Seed **${run.seed}** · started ${run.startedAt} · ${duration(run.durationMs)} · ${s.totals.checks} checks: ${s.totals.pass} pass, ${s.totals.fail} fail, ${s.totals.error} error, ${s.totals.skip} skip, ${s.totals.omit} omit`,
    '',
  );
  if (run.shards?.length) L.push(`Merged from ${run.shards.length} shards: ${run.shards.map((x) => `${x.runId}${x.shard ? ` (${x.shard})` : ''}`).join(', ')}`, '');
  L.push('| service | target | checks (pass/fail/error/skip/omit) | requirements covered | MUST covered |', '|---|---|---|---|---|');
  for (const t of run.targets) {
    const c = s.coverage[t.service];
    const n = verdictCounts(s.checks.filter((x) => x.service === t.service));
    const where = t.status === 'not configured' ? 'not configured' : `${t.status}${t.baseUrl ? ` ${t.baseUrl}${t.servicePath ?? ''}` : ''}${t.auth ? ` (${t.auth})` : ''}`;
    L.push(`| ${t.service} | ${cell(where)} | ${n.pass}/${n.fail}/${n.error}/${n.skip}/${n.omit} | ${c ? `${c.covered}/${c.requirements - c.untestable}` : '-'} | ${c ? `${c.mustCovered}/${c.must}` : '-'} |`);
  }

  L.push('', '## Gate', '');
  L.push(`${g.verdict === 'pass' ? 'Every MUST requirement checked held' : `${g.gating.length} check(s) fail the gate`}${g.knownFailuresFile ? ` (known failures: \`${g.knownFailuresFile}\`${g.deployment ? `, deployment ${g.deployment}` : ''})` : ''}.`);
  const list = (title: string, rows: string[]) => {
    if (rows.length) L.push('', `**${title}** (${rows.length})`, '', ...rows.map((r) => `- ${r}`));
  };
  list('Gating failures', g.gating.map((id) => `\`${id}\``));
  list('Failures of EXPECT requirements only (reported, not gating)', g.expectOnly.map((id) => `\`${id}\``));
  list('Known failures (expected)', g.expected.map((x) => `\`${x.checkId}\` via ${x.entry}: ${cell(x.reason)}`));
  list('Pending checks (not yet passed on this deployment)', g.pending.map((x) => `\`${x.checkId}\`: ${cell(x.reason)}`));
  list('Unexpected passes: remove these from the known-failures list', g.unexpectedPasses.map((x) => `\`${x.checkId}\` passed, listed as ${x.entry}: ${cell(x.reason)}`));
  list('Pending checks that passed for the first time (they gate from now on)', g.graduated.map((id) => `\`${id}\``));

  const failures = failureViews(s, folder);
  if (failures.length) {
    L.push('', '## Failing checks', '');
    for (const f of failures) {
      L.push(`### ${f.check.verdict.toUpperCase()} (${f.gate}): ${cell(f.check.title)}`, '', `Check \`${f.check.checkId}\` in \`${f.check.file}\`${f.reason ? `; listed: ${cell(f.reason)}` : ''}`, '');
      for (const r of f.rules) L.push(`- **${r.id}** (${r.level}, ${r.section}): ${cell(r.text)}`);
      L.push('', fence(clip(f.check.message ?? f.check.note ?? '(no message)')));
      for (const [i, { exchange: e, curl }] of f.exchanges.entries()) {
        const n = f.exchangesTotal - f.exchanges.length + i + 1;
        L.push('', `<details><summary>Exchange ${n} of ${f.exchangesTotal}: ${e.operation} → ${e.error ? `no reply (${cell(e.error)})` : `HTTP ${e.reply?.status}`} in ${e.durationMs} ms</summary>`, '');
        L.push('Replay (set the credential variables first):', '', fence(curl, 'sh'), '', 'Request body:', '', fence(clip(JSON.stringify(e.request.body, null, 2)), 'json'));
        if (e.reply) L.push('', 'Reply body:', '', fence(clip(e.reply.body !== undefined ? JSON.stringify(e.reply.body, null, 2) : (e.reply.text ?? '')), 'json'));
        L.push('', '</details>');
      }
      L.push('');
    }
  }

  const services = serviceViews(s);
  L.push('', '## Coverage', '');
  for (const v of services) {
    L.push(`- **${v.service}**: ${v.uncovered.length ? `no check yet for ${v.uncovered.map((r) => `${r.id} (${r.level})`).join(', ')}` : 'every testable requirement has a check'}${v.untestable.length ? `; untestable: ${v.untestable.map((r) => r.id).join(', ')}` : ''}`);
  }

  L.push('', '## Requirements', '');
  for (const v of services) {
    L.push(`<details><summary>${v.service}: ${v.sections.reduce((n, x) => n + x.requirements.length, 0)} requirements in ${v.sections.length} sections</summary>`, '');
    for (const sec of v.sections) {
      L.push(`#### ${sec.section}`, '', '| requirement | level | outcome | checks |', '|---|---|---|---|');
      for (const r of sec.requirements) {
        const checks = r.checkResults.map((c) => `${c.verdict}: ${c.title.replace(/ \[[^\]]*\]$/, '')}`).join('<br>') || (r.untestable ? `untestable: ${r.untestable}` : '-');
        L.push(`| ${r.id} | ${r.level} | ${r.outcome} | ${cell(checks)} |`);
      }
      L.push('');
    }
    L.push('</details>', '');
  }

  if (s.stats.latency.length) {
    L.push('## Latency per operation', '', '| service | operation | replies | p50 (ms) | p95 (ms) | max (ms) |', '|---|---|---|---|---|---|');
    for (const l of s.stats.latency) L.push(`| ${l.service} | ${l.operation} | ${l.n} | ${l.p50} | ${l.p95} | ${l.max} |`);
  }
  if (s.stats.matchScores.length) {
    L.push('', '## Match scores of search results', '', '| service | results | min | median | mean | max | histogram (0.0-0.1 ... 0.9-1.0) |', '|---|---|---|---|---|---|---|');
    for (const m of s.stats.matchScores) L.push(`| ${m.service} | ${m.n} | ${m.min} | ${m.p50} | ${m.mean} | ${m.max} | ${m.histogram.join(' ')} |`);
  }
  if (s.lags.length) {
    L.push('', '## Reads that lagged behind writes', '', '| check | read | lag (ms) |', '|---|---|---|');
    for (const l of s.lags) L.push(`| ${l.checkId} | ${cell(l.what)} | ${l.ms} |`);
  }
  if (s.cleanup) {
    const c = s.cleanup;
    L.push('', '## Cleanup', '', `Sources: ${c.sources.deleted} hard-deleted, ${c.sources.alreadyGone} already gone, of ${c.sources.attempted}. Relationships: ${c.relationships.deleted} deleted, ${c.relationships.alreadyGone} already gone, of ${c.relationships.attempted}. Failures: ${c.failures.length}.`);
    for (const f of c.failures) L.push(`- ${f.service} ${f.what}: ${cell(f.reason)}`);
  }
  L.push('', `<details><summary>Profile used</summary>`, '', fence(JSON.stringify(run.profile, null, 2), 'json'), '', '</details>');
  return `${L.join('\n')}\n`;
}
