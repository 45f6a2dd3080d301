/**
 * The state-table situations a run's walks reached (specs/state/situations.ts; the walk checks record them,
 * harness/verdict.ts SituationsSeen): per service the situations enumerated in the run's scope, those reached, those
 * judged, and those not reached with why (the budget, the deployment's outcomes, the target's sources, the check's
 * time), for summary.json (`situations.<service>`), summary.md and report.html.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */
import { e } from './html-kit.js';
import type { CheckResult } from './results.js';

/** One service's situations in a run. */
export interface ServiceSituations {
  enumerated: number;
  reached: number;
  judged: number;
  /** Situations not reached, each with why (the first reason given for it). */
  notReached: Array<{ situation: string; why: string }>;
}

/** The situations of each service whose walk checks ran, merged over its checks (a situation reached once is reached). */
export function situationsOf(results: readonly CheckResult[]): Record<string, ServiceSituations> {
  const by = new Map<
    string,
    { enumerated: number; reached: Set<string>; judged: Set<string>; left: Map<string, string> }
  >();
  for (const r of results) {
    const s = r.situations;
    if (!s) continue;
    let m = by.get(s.service);
    if (!m) by.set(s.service, (m = { enumerated: 0, reached: new Set(), judged: new Set(), left: new Map() }));
    m.enumerated = Math.max(m.enumerated, s.enumerated);
    for (const k of s.reached) m.reached.add(k);
    for (const k of s.judged) m.judged.add(k);
    for (const { situation, why } of s.notReached) if (!m.left.has(situation)) m.left.set(situation, why);
  }
  const out: Record<string, ServiceSituations> = {};
  for (const [service, m] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    const notReached = [...m.left]
      .filter(([k]) => !m.reached.has(k))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([situation, why]) => ({ situation, why }));
    out[service] = { enumerated: m.enumerated, reached: m.reached.size, judged: m.judged.size, notReached };
  }
  return out;
}

/** A check's result without its situation keys (summary.json carries them per service, results.json per check). */
export function withoutSituationKeys(r: CheckResult): CheckResult {
  if (!r.situations) return r;
  const { situations: _keys, ...rest } = r;
  return rest;
}

/** `reached R of E situations of the state table (J judged)`. */
export function situationsLine(s: ServiceSituations): string {
  return `reached ${s.reached} of ${s.enumerated} situations of the state table (${s.judged} judged)`;
}

/** The situations not reached, grouped by why, with how many each. */
function byWhy(s: ServiceSituations): Array<[why: string, situations: string[]]> {
  const groups = new Map<string, string[]>();
  for (const { situation, why } of s.notReached) groups.set(why, [...(groups.get(why) ?? []), situation]);
  return [...groups].sort(([, a], [, b]) => b.length - a.length);
}

/** The situations section of a service in report.html: counts, then those not reached by why (folded). */
export function situationsHtml(s: ServiceSituations | undefined): string {
  if (!s) return '';
  const groups = byWhy(s)
    .map(
      ([why, keys]) =>
        `<details><summary>${keys.length} not reached: ${e(why)}</summary><ul class="compact">` +
        `${keys.map((k) => `<li><code>${e(k)}</code></li>`).join('')}</ul></details>`,
    )
    .join('');
  return `<h3>Situations of the state table</h3><p>The walks ${e(situationsLine(s))}: every step the rows judge from every state of three records over two sources, enumerated from the state engine (docs/situations.md).</p>${groups}`;
}

/** The situations section of summary.md: one line per service, and those not reached by why. */
export function situationsMarkdown(all: Record<string, ServiceSituations> | undefined): string[] {
  if (!all || !Object.keys(all).length) return [];
  const out = ['', '## Situations of the state tables', ''];
  for (const [service, s] of Object.entries(all)) {
    out.push(`- **${service}**: ${situationsLine(s)}`);
    for (const [why, keys] of byWhy(s)) out.push(`  - ${keys.length} not reached: ${why}`);
  }
  return out;
}
