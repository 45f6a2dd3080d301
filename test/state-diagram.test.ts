/**
 * State tables (specs/<service>/states.ts) and their diagrams (report/state-diagram.ts): every
 * table names only operations of its service's operations table and its own states, every
 * transition has requirements in the catalogue (else its edge could never be coloured), the seed's
 * states are the ones drawn; an edge takes the worst verdict of the checks citing its row, a
 * passing check counts only when it sent the operation, a failure of another requirement does not
 * turn it red; Graphviz draws one edge per transition with its id and verdict class.
 */
import { describe, expect, it } from 'vitest';
import { edgesOf, transitionRequirements } from '../specs/state/states.js';
import { SERVICES, serviceNames } from '../specs/services.js';
import type { CheckResult } from '../report/results.js';
import { EDGE_COLOURS, edgeId, renderStateDiagrams, transitionViews } from '../report/state-diagram.js';

const SEED_STATES = {
  organization: ['active', 'soft-deleted', 'retired (merged)', 'deleted'],
  person: ['active', 'deactivated', 'merged', 'deleted'],
  provider: ['active', 'soft-deleted', 'merged', 'deleted'],
};

const check = (
  verifies: string[],
  verdict: CheckResult['verdict'],
  operations: string[],
  failedRequirements: string[] = [],
): CheckResult => ({
  checkId: `organization/x/${verifies.join('-')}-${verdict}-${operations.join('-')}`,
  title: 't',
  file: 'scenarios/organization/x.test.ts',
  service: 'organization',
  area: 'x',
  verifies,
  verdict,
  failedRequirements,
  durationMs: 1,
  operations,
});

describe('state tables', () => {
  it.each(serviceNames())(
    '%s: the seed states, operations of its table, and requirements for every transition',
    (service) => {
      const spec = SERVICES[service];
      expect(spec.states.states).toEqual(SEED_STATES[service]);
      const ops = new Set<string>(spec.operations.map((o) => o.name));
      for (const t of spec.states.transitions) {
        expect(ops.has(t.operation), t.operation).toBe(true);
        for (const [from, to] of edgesOf(spec.states, t))
          expect(spec.states.states).toEqual(expect.arrayContaining([from, to]));
        expect(
          transitionRequirements(spec.requirements, t.operation).length,
          `${service} ${t.operation}`,
        ).toBeGreaterThan(0);
      }
      expect(spec.states.source).toMatch(/\.md, States and transitions$/);
    },
  );
});

describe('edge verdicts', () => {
  const org = SERVICES.organization;
  const verdictOf = (results: CheckResult[], op: string) =>
    transitionViews(org.states, org.requirements, results).find((v) => v.transition.operation === op)!.verdict;

  it('fail when a check failed a requirement of the row; pass only when a passing check sent the operation; none when nothing cited it', () => {
    expect(
      verdictOf(
        [
          check(['ORG-MERGE-EFFECT'], 'fail', ['mergeIdentities'], ['ORG-MERGE-EFFECT']),
          check(['ORG-MERGE-REPLY'], 'pass', ['mergeIdentities']),
        ],
        'mergeIdentities',
      ),
    ).toBe('fail');
    expect(verdictOf([check(['ORG-MERGE-EFFECT'], 'pass', ['postIdentity'])], 'mergeIdentities')).toBe('none');
    expect(verdictOf([check(['ORG-MERGE-EFFECT'], 'pass', ['mergeIdentities'])], 'mergeIdentities')).toBe('pass');
    expect(verdictOf([], 'linkIdentities')).toBe('none');
    expect(verdictOf([check(['ORG-LINK-EFFECT'], 'error', [])], 'linkIdentities')).toBe('error');
  });

  it('a walk that failed one row colours that row only', () => {
    const walk = check(
      ['ORG-MERGE-EFFECT', 'ORG-LINK-EFFECT', 'ORG-SOFTDELETE-EFFECT'],
      'fail',
      ['mergeIdentities', 'linkIdentities', 'softDeleteSource'],
      ['ORG-MERGE-EFFECT'],
    );
    expect(verdictOf([walk], 'mergeIdentities')).toBe('fail');
    expect(verdictOf([walk], 'linkIdentities')).toBe('pass');
    expect(verdictOf([walk], 'restoreSource')).toBe('none');
  });

  it('Graphviz draws every edge with its id, verdict class and colour', async () => {
    const results = [check(['ORG-MERGE-EFFECT'], 'fail', ['mergeIdentities'], ['ORG-MERGE-EFFECT'])];
    const { organization } = await renderStateDiagrams(
      [{ table: org.states, requirements: org.requirements }],
      results,
    );
    expect(organization!.svg.startsWith('<svg')).toBe(true);
    const edge = new RegExp(
      `<g id="${edgeId('organization', 'mergeIdentities', 'active').replace(/-/g, '&#45;')}" class="edge transition fail">[\\s\\S]*?stroke="${EDGE_COLOURS.fail}"`,
    );
    expect(organization!.svg).toMatch(edge);
    // deleteSourceIdentity runs from any state: one edge from each of the three others.
    expect(organization!.svg.match(/class="edge transition none"/g)!.length).toBe(
      org.states.transitions.length - 1 + 2,
    );
  });
});
