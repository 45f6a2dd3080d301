/**
 * The text of a mutation measure: each mutant as it is judged (for the progress), and the summary
 * whose last line is the score (score.ts scoreLine): the kills by kind, every survivor with its
 * place, mutator, original and replacement code and its triage, and the figures per file.
 */
import type { MutantInfo } from './instrument.js';
import type { Measure } from './measure.js';
import type { MutantResult } from './result.js';
import { type Score, scoreLine } from './score.js';
import type { Triage, TriageClass } from './triage.js';

/** Code on one line, at most `max` characters. */
export function short(code: string, max = 70): string {
  const one = code.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** `file:line mutator: original -> replacement`. */
export const mutation = (m: MutantInfo) =>
  `${m.file}:${m.line} ${m.mutator}: \`${short(m.original)}\` -> \`${short(m.replacement, 40)}\``;

/** One judged mutant, for the progress. */
export function progressLine(done: number, of: number, r: MutantResult): string {
  const where = r.services.length ? ` [${r.services.join(', ')}, ${(r.ms / 1000).toFixed(1)} s]` : '';
  const m = r.mutant;
  return `[${done}/${of}] ${r.status.padEnd(11)} ${m.id} \`${short(m.original, 50)}\` -> \`${short(m.replacement, 30)}\`${where}: ${r.reason}`;
}

const SURVIVED = new Set(['survived', 'no-coverage']);

/** The class a survivor is triaged as, or "untriaged". */
const classOf = (triage: Triage, r: MutantResult): TriageClass | 'untriaged' =>
  triage.entries.get(r.mutant.id)?.class ?? 'untriaged';

/** The score of a measure under a triage. */
export function scoreOf(m: Measure, triage: Triage): Score {
  const killed = m.results.filter((r) => r.status === 'killed' || r.status === 'timeout').length;
  const excluded = m.results.filter(
    (r) => SURVIVED.has(r.status) && ['equivalent', 'legal'].includes(classOf(triage, r)),
  ).length;
  return { killed, measured: m.results.length, excluded };
}

/** Survivors not in the triage file. */
export const untriaged = (m: Measure, triage: Triage) =>
  m.results.filter((r) => SURVIVED.has(r.status) && classOf(triage, r) === 'untriaged');

function countBy<T>(items: T[], key: (t: T) => string): string {
  const counts = new Map<string, number>();
  for (const i of items) counts.set(key(i), (counts.get(key(i)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

function perFile(m: Measure): string[] {
  const files = [...new Set(m.results.map((r) => r.mutant.file))].sort();
  const w = Math.max(4, ...files.map((f) => f.length));
  const rows = files.map((f) => {
    const rs = m.results.filter((r) => r.mutant.file === f);
    const killed = rs.filter((r) => !SURVIVED.has(r.status)).length;
    return `  ${f.padEnd(w)}  ${String(rs.length).padStart(8)}  ${String(killed).padStart(6)}  ${String(rs.length - killed).padStart(9)}`;
  });
  return [`  ${'file'.padEnd(w)}  measured  killed  survivors`, ...rows];
}

/** The summary of a measure; its last line is the score. */
export function summaryText(m: Measure, triage: Triage, o: { seed: number; runSeed: number }): string {
  const L: string[] = [];
  const killed = m.results.filter((r) => r.status === 'killed');
  const timeouts = m.results.filter((r) => r.status === 'timeout');
  const survivors = m.results.filter((r) => SURVIVED.has(r.status));
  const resumed = m.results.filter((r) => r.resumed).length;
  L.push(
    `Mutation measure: ${m.results.length} of ${m.total} mutants of ${m.files.length} files (sample seed ${o.seed}, run seed ${o.runSeed}), ${(m.wallMs / 60000).toFixed(1)} min${resumed ? ` (${resumed} from the journal)` : ''}`,
  );
  const clean = Object.entries(m.cleanMs).map(([s, ms]) => `${s} ${((ms ?? 0) / 1000).toFixed(1)} s`);
  if (clean.length) L.push(`  clean runs (coverage pass): ${clean.join(', ')}`);
  if (m.notRun.length)
    L.push(
      `  not run: ${m.notRun.length} of the ${m.selected.length} selected (the time limit passed, or the measure was stopped)`,
    );
  L.push(`  killed: ${killed.length}${killed.length ? ` (${countBy(killed, (r) => r.kind ?? 'gate')})` : ''}`);
  L.push(`  timeouts (counted as killed): ${timeouts.length}`);
  L.push(
    `  survivors: ${survivors.length}${survivors.length ? ` (${countBy(survivors, (r) => classOf(triage, r))}; ${survivors.filter((r) => r.status === 'no-coverage').length} reached by no clean run)` : ''}`,
  );
  L.push(...perFile(m));
  for (const cls of ['gap', 'untriaged', 'legal', 'equivalent'] as const) {
    const these = survivors.filter((r) => classOf(triage, r) === cls);
    if (!these.length) continue;
    L.push(`survivors, ${cls} (${these.length}):`);
    for (const r of these)
      L.push(`  ${mutation(r.mutant)}  ${r.mutant.id}${r.status === 'no-coverage' ? ' (no coverage)' : ''}`);
  }
  for (const p of triage.problems) L.push(`triage: ${p}`);
  for (const n of triage.notes ?? []) L.push(`triage note: ${n}`);
  L.push(scoreLine(scoreOf(m, triage)));
  return L.join('\n');
}
