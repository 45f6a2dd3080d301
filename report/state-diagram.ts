/**
 * Each service's state table (specs/<service>/states.ts, from the seed's "States and transitions") drawn as a state
 * diagram: states as nodes, each operation's transition as an edge coloured by the verdict of the checks that exercised
 * it (fail red, error orange, pass green, only skipped or omitted checks light grey, no check at all grey and dashed).
 *
 * Which checks exercised a transition: the checks citing one of the transition's requirements (catalogue entries of its
 * state-table row, specs/state/states.ts transitionRequirements). A check that failed one of those requirements makes
 * the edge fail; a passing check counts only when it sent the operation. Rendered to SVG with Graphviz (@viz-js/viz),
 * loaded only here, when reports are written.
 */
import type { Requirement } from '../specs/common/model.js';
import { type StateTable, type Transition, edgesOf, transitionRequirements } from '../specs/state/states.js';
import type { Verdict } from '../harness/verdict.js';
import { OUTCOME_COLOURS } from './palette.js';
import type { CheckResult } from './results.js';

/** An edge's verdict: the worst verdict of its checks, or `none` when no check exercised it. */
export type EdgeVerdict = Verdict | 'none';

export interface TransitionView {
  transition: Transition;
  requirements: string[];
  verdict: EdgeVerdict;
  /** The checks that exercised it, with their verdicts. */
  checks: Array<{ checkId: string; verdict: Verdict }>;
}

export const EDGE_COLOURS: Record<EdgeVerdict, string> = {
  ...OUTCOME_COLOURS,
  skip: '#bdbdbd',
  omit: '#bdbdbd',
  none: '#9e9e9e',
};
const WORST: EdgeVerdict[] = ['fail', 'error', 'pass', 'skip', 'omit'];

/** The verdict of every transition of a service's table from the run's checks of that service. */
export function transitionViews(
  table: StateTable,
  requirements: Requirement[],
  results: CheckResult[],
): TransitionView[] {
  const mine = results.filter((r) => r.service === table.service);
  return table.transitions.map((transition) => {
    const ids = transitionRequirements(requirements, transition.operation).map((r) => r.id);
    const checks = mine
      .filter((c) => c.verifies.some((id) => ids.includes(id)))
      .flatMap((c): TransitionView['checks'] => {
        if (c.verdict === 'fail') {
          const broke = (c.failedRequirements.length ? c.failedRequirements : c.verifies).some((id) =>
            ids.includes(id),
          );
          // A failure of another requirement says nothing against this transition; it still exercised it when it sent
          // the operation.
          return broke
            ? [{ checkId: c.checkId, verdict: 'fail' }]
            : c.operations.includes(transition.operation)
              ? [{ checkId: c.checkId, verdict: 'pass' }]
              : [];
        }
        if (c.verdict === 'pass' && !c.operations.includes(transition.operation)) return [];
        return [{ checkId: c.checkId, verdict: c.verdict }];
      });
    const verdict = WORST.find((v) => checks.some((c) => c.verdict === v)) ?? 'none';
    return { transition, requirements: ids, verdict, checks };
  });
}

const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const slugOf = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-');

/** SVG id of a transition's edge: `transition-<service>-<operation>-<from state>`. */
export const edgeId = (service: string, operation: string, from: string) =>
  `transition-${service}-${operation}-${slugOf(from)}`;

/** The Graphviz DOT source of one service's diagram. */
export function stateDot(table: StateTable, views: TransitionView[]): string {
  const L = [
    `digraph ${q(table.service)} {`,
    `  graph [id=${q(`diagram-${table.service}`)}, rankdir=LR, bgcolor="transparent", nodesep=0.6, ranksep=1.1, ` +
      `pad=0.2, fontname="Helvetica"];`,
    '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#57606a", fontname="Helvetica", ' +
      'fontsize=13, margin="0.25,0.12"];',
    '  edge [fontname="Helvetica", fontsize=11, penwidth=2.2, arrowsize=0.8];',
  ];
  for (const s of table.states) L.push(`  ${q(s)} [id=${q(`state-${table.service}-${slugOf(s)}`)}];`);
  for (const v of views) {
    const colour = EDGE_COLOURS[v.verdict];
    const counts = WORST.map((x) => [x, v.checks.filter((c) => c.verdict === x).length] as const).filter(([, n]) => n);
    const tip =
      `${v.transition.operation}: ` +
      `${v.verdict === 'none' ? 'no check exercised it' : counts.map(([x, n]) => `${n} ${x}`).join(', ')}${v.transition.note ? ` (${v.transition.note})` : ''}`;
    for (const [from, to] of edgesOf(table, v.transition)) {
      const attrs = [
        `id=${q(edgeId(table.service, v.transition.operation, from))}`,
        `class=${q(`transition ${v.verdict}`)}`,
        `label=${q(v.transition.operation)}`,
        `color=${q(colour)}`,
        `fontcolor=${q(colour === EDGE_COLOURS.pass ? '#1b5e20' : colour)}`,
        `tooltip=${q(tip)}`,
        ...(v.verdict === 'none' ? ['style="dashed"'] : []),
        ...(v.requirements[0] ? [`href=${q(`#req-${v.requirements[0]}`)}`] : []),
      ];
      L.push(`  ${q(from)} -> ${q(to)} [${attrs.join(', ')}];`);
    }
  }
  L.push('}');
  return L.join('\n');
}

/**
 * Every service's diagram as inline SVG (no XML prolog), keyed by service.
 * @param tables the state tables to draw, with each service's requirement catalogue
 */
export async function renderStateDiagrams(
  tables: Array<{ table: StateTable; requirements: Requirement[] }>,
  results: CheckResult[],
): Promise<Record<string, { svg: string; views: TransitionView[] }>> {
  if (!tables.length) return {};
  const { instance } = await import('@viz-js/viz');
  const viz = await instance();
  const out: Record<string, { svg: string; views: TransitionView[] }> = {};
  for (const { table, requirements } of tables) {
    const views = transitionViews(table, requirements, results);
    const svg = viz.renderString(stateDot(table, views), { format: 'svg' });
    out[table.service] = { svg: svg.slice(svg.indexOf('<svg')), views };
  }
  return out;
}
