/**
 * Walk steering by category (scenarios/shared/walk/steer.ts, coverage.ts): a step that fits the
 * state table scores a category it has not exercised yet (specs/common/categories.ts: how many
 * records the named record's identity holds, whether sources were merged into it), so the walks
 * reach the multiplicities a minimal configuration misses: an unlink from an identity of three.
 * Source: organization-identity-api.md, States and transitions ("`source` unlinked from `unlinkFromSource`").
 */
import { describe, expect, it } from 'vitest';
import { CoverageTally, stepCategories, stepKeys } from '../scenarios/shared/state/coverage.js';
import { IdentityModel, type ModelRecord } from '../specs/state/identity-model.js';
import { type SteerableKind, rankOptions } from '../scenarios/shared/walk/steer.js';

/** Records A, B, C in one identity and D, E in another; F retired into A. */
function model(): IdentityModel {
  const m = new IdentityModel();
  const add = (group: number) => {
    const r = m.add({ name: 'cf_test_a', id: `n${m.records.length}` }, {});
    r.group = group;
    return r;
  };
  for (const g of [1, 1, 1, 2, 2]) add(g);
  const f = add(3);
  f.state = 'retired';
  f.retiredInto = 'A';
  return m;
}

/** An unlink of the second named record from the first's identity: pairs of live records of one identity. */
const unlink: SteerableKind = {
  name: 'unlink',
  roles: 2,
  roleNames: ['from', 'moved'],
  fit: (m) =>
    m.records.flatMap((a) =>
      m.records
        .filter((b) => b !== a && a.state === 'active' && b.state === 'active' && a.group === b.group)
        .map((b) => [a, b]),
    ),
};

const labels = (recs: ModelRecord[]) => recs.map((r) => r.label).join('');

describe('categories of a step', () => {
  it('count the live records of each named record’s identity and the sources merged into it', () => {
    const m = model();
    const [a, b, , d, e] = m.records as [ModelRecord, ModelRecord, ModelRecord, ModelRecord, ModelRecord];
    expect(stepCategories(unlink, [a, b], m.records)).toEqual([
      'identity-of-from:3+',
      'merged-into-from',
      'identity-of-moved:3+',
    ]);
    expect(stepCategories(unlink, [d, e], m.records)).toEqual(['identity-of-from:2', 'identity-of-moved:2']);
    expect(stepKeys(unlink, [d, e], m.records).categories).toEqual([
      'unlink: identity-of-from:2',
      'unlink: identity-of-moved:2',
    ]);
  });
});

describe('steering by category', () => {
  it('prefers the option whose identity size was not exercised yet, everything else being known', () => {
    const m = model();
    const options = rankOptions(m, unlink, true);
    // Every pair and sequence known: only categories can tell the options apart.
    m.known = new Set([
      ...options.flatMap((o) => [o.keys.pair, ...o.keys.sequences, ...o.keys.followUps]),
      'unlink: identity-of-from:2',
      'unlink: identity-of-moved:2',
    ]);
    const ranked = rankOptions(m, unlink, true);
    expect(ranked[0]!.score).toBeGreaterThan(0);
    expect(ranked[0]!.recs.every((r) => r.group === 1)).toBe(true);
    expect(ranked.filter((o) => o.recs[0]!.group === 2).every((o) => o.score === 0)).toBe(true);
  });

  it('turns to the smaller identity once every category of the larger one is exercised', () => {
    const m = model();
    const options = rankOptions(m, unlink, true);
    m.known = new Set(options.flatMap((o) => [o.keys.pair, ...o.keys.sequences, ...o.keys.followUps]));
    for (const o of options.filter((x) => x.recs[0]!.group === 1)) m.exercise(o.keys);
    const first = rankOptions(m, unlink, true)[0]!;
    expect(first.score).toBeGreaterThan(0);
    expect(first.recs[0]!.group).toBe(2);
  });

  it('the walks’ note lists the categories exercised and those an allowed step offered but no walk took', () => {
    const m = model();
    const ranked = rankOptions(m, unlink, true);
    const tally = new CoverageTally();
    tally.add(ranked.find((o) => labels(o.recs) === 'DE')!.keys);
    tally.offer(m.offered);
    const note = tally.summary([unlink], ['active'], 1, 1);
    expect(note).toMatch(
      /categories \(specs\/common\/categories.ts\): unlink: identity-of-from:2 x1; unlink: identity-of-moved:2 x1/,
    );
    expect(note).toMatch(
      /offered by an allowed step but not exercised: unlink: identity-of-from:3\+; unlink: identity-of-moved:3\+; unlink: merged-into-from/,
    );
  });
});
