/**
 * Failures ordered by cause (report/failure-order.ts), on the failures merge-no-unify causes: the
 * requirements in state-table order, the merge that did not merge first as the root cause, the
 * checks failing the same requirement at the same operation marked "same cause", and the unmerge
 * refused after it marked "downstream" and listed after it; Allure files a failure under the
 * operation it failed at (harness/allure.ts).
 */
import { resultOf } from './support/report-fixture.js';
import { describe, expect, it } from 'vitest';
import { subjectOperation } from '../harness/allure.js';
import { type CausePlace, failingOperation, orderByCause, requirementRank } from '../report/failure-order.js';
import type { Gate } from '../report/known-failures.js';
import type { CheckResult } from '../report/results.js';

const WALK = ['ORG-POST-ADDS', 'ORG-SOFTDELETE-EFFECT', 'ORG-MERGE-EFFECT', 'ORG-UNMERGE-EFFECT', 'ORG-UNMERGE-REPLY'];
const check = (
  id: string,
  verifies: string[],
  failed: string[],
  failure: Partial<NonNullable<CheckResult['failure']>>,
  operations: string[] = [],
): CheckResult =>
  resultOf(id, 'fail', verifies, failed, { failure: { requirements: failed, what: '', ...failure }, operations });
const gate = (gating: string[]): Gate => ({
  verdict: 'fail',
  gating,
  incomplete: [],
  expectOnly: [],
  expected: [],
  unexpectedPasses: [],
  pending: [],
  graduated: [],
});

/** The failures of merge-no-unify, in check-ID order (the order they used to be listed in). */
const FAILURES = [
  check(
    'envelope/unmergeidentities-replies-with-a-valid-envelope',
    ['ORG-ENV-REPLY', 'ORG-ENV-ECHO', 'ORG-OP-UNMERGEIDENTITIES'],
    ['ORG-OP-UNMERGEIDENTITIES'],
    { exchange: { number: 6, of: 6, operation: 'unmergeIdentities', outcome: 'HTTP 409, success=false in 3 ms' } },
    ['postIdentity', 'nativeIdQuery', 'mergeIdentities', 'unmergeIdentities'],
  ),
  check(
    'merge-link/after-mergeidentities',
    ['ORG-MERGE-EFFECT'],
    ['ORG-MERGE-EFFECT'],
    { operation: 'mergeIdentities' },
    ['postIdentity', 'mergeIdentities'],
  ),
  check('merge-link/after-unmergeidentities', ['ORG-UNMERGE-EFFECT'], ['ORG-MERGE-EFFECT'], {
    operation: 'mergeIdentities',
  }),
  check('walks/model-based-walks', WALK, ['ORG-MERGE-EFFECT'], {
    operation: 'mergeIdentities',
    steps: ['(walk seed 1)', '  1. mergeIdentities survivor B, retire A'],
    // The last exchange of a walk is the read that judged the step, not the step's operation.
    exchange: { number: 9, of: 9, operation: 'demographicsSearch', outcome: 'HTTP 200' },
  }),
  check('walks/tours', WALK, ['ORG-MERGE-EFFECT'], {
    operation: 'mergeIdentities',
    steps: ['(tour)', '  1. mergeIdentities'],
  }),
];

describe('failures ordered by cause', () => {
  it('ranks requirements in state-table order, then the rest of the catalogue', () => {
    const rank = requirementRank('organization');
    const at = (id: string) => rank.get(id)!;
    expect(at('ORG-POST-ADDS')).toBe(0);
    expect(at('ORG-POST-ADDS')).toBeLessThan(at('ORG-SOFTDELETE-EFFECT'));
    expect(at('ORG-SOFTDELETE-EFFECT')).toBeLessThan(at('ORG-MERGE-EFFECT'));
    expect(at('ORG-MERGE-EFFECT')).toBeLessThan(at('ORG-MERGE-REPLY'));
    expect(at('ORG-MERGE-REPLY')).toBeLessThan(at('ORG-UNMERGE-EFFECT'));
    expect(at('ORG-UNLINK-REPLY')).toBeLessThan(at('ORG-OP-UNMERGEIDENTITIES'));
    expect(rank.size).toBeGreaterThan(70);
  });

  it('lists the merge that did not merge first, the same cause after it, then the unmerge it made fail', () => {
    const ordered = orderByCause(FAILURES, gate(FAILURES.map((c) => c.checkId)), ['organization']);
    const row = (x: { check: CheckResult; place: CausePlace }) =>
      `${x.place.role} ${x.place.requirement} at ${x.place.operation} ${x.check.checkId.replace('organization/', '')}`;
    expect(ordered.map(row)).toEqual([
      'root ORG-MERGE-EFFECT at mergeIdentities merge-link/after-mergeidentities',
      'same-cause ORG-MERGE-EFFECT at mergeIdentities merge-link/after-unmergeidentities',
      'same-cause ORG-MERGE-EFFECT at mergeIdentities walks/model-based-walks',
      'same-cause ORG-MERGE-EFFECT at mergeIdentities walks/tours',
      'downstream ORG-OP-UNMERGEIDENTITIES at unmergeIdentities envelope/unmergeidentities-replies-with-a-valid-envelope',
    ]);
    expect(ordered[0]!.place.followers).toBe(4);
    for (const x of ordered.slice(1))
      expect(x.place.cause?.checkId).toBe('organization/merge-link/after-mergeidentities');
    expect(ordered.at(-1)!.place.cause).toMatchObject({
      requirement: 'ORG-MERGE-EFFECT',
      operation: 'mergeIdentities',
    });
  });

  it('keeps gating failures before known ones, and a failure at an operation no earlier effect broke stands alone', () => {
    const known = gate(['organization/envelope/unmergeidentities-replies-with-a-valid-envelope']);
    known.expected = FAILURES.slice(1).map((c) => ({ checkId: c.checkId, entry: 'ORG-MERGE-EFFECT', reason: 'x' }));
    const ordered = orderByCause(FAILURES, known, ['organization']);
    expect(ordered[0]).toMatchObject({
      gate: 'gating',
      place: { role: 'root', requirement: 'ORG-OP-UNMERGEIDENTITIES' },
    });
    expect(ordered.slice(1).every((x) => x.gate === 'known')).toBe(true);
  });

  it('takes the operation a failure happened at from its step, else its exchange, else the operation its finding names', () => {
    expect(failingOperation(FAILURES[3]!)).toBe('mergeIdentities');
    expect(failingOperation(FAILURES[0]!)).toBe('unmergeIdentities');
    const older = check('merge-link/old', ['ORG-MERGE-EFFECT'], ['ORG-MERGE-EFFECT'], {
      what: 'mergeIdentities survivor A, retire B',
    });
    expect(failingOperation(older)).toBe('mergeIdentities');
  });
});

describe('Allure files a failure under the operation it failed at', () => {
  it('a walk that failed at mergeIdentities is filed under mergeIdentities, not its first operation', () => {
    const walk = FAILURES[3]!;
    const meta = {
      service: 'organization',
      verifies: walk.verifies,
      operations: ['softDeleteSource', 'mergeIdentities'],
    };
    expect(subjectOperation(meta)).not.toBe('mergeIdentities');
    expect(subjectOperation({ ...meta, failure: walk.failure })).toBe('mergeIdentities');
  });
});
