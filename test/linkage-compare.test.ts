/**
 * linkage/compare.ts pair flips: counted from the joint table of entity and both runs' clusters,
 * they equal the enumeration of every record pair (a record not read back is linked to nothing),
 * and one cluster of 20,000 records is counted without enumerating its 200 million pairs.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { pairFlips } from '../linkage/compare.js';

function enumerated(entity: number[], a: Array<string | null>, b: Array<string | null>) {
  const out = {
    truePairsNewlyLinked: 0,
    truePairsNewlyUnlinked: 0,
    nonPairsNewlyLinked: 0,
    nonPairsNewlyUnlinked: 0,
    truncated: false,
  };
  for (let i = 0; i < entity.length; i++)
    for (let j = i + 1; j < entity.length; j++) {
      const inA = Boolean(a[i]) && a[i] === a[j];
      const inB = Boolean(b[i]) && b[i] === b[j];
      const same = entity[i] === entity[j];
      if (inB && !inA) same ? out.truePairsNewlyLinked++ : out.nonPairsNewlyLinked++;
      if (inA && !inB) same ? out.truePairsNewlyUnlinked++ : out.nonPairsNewlyUnlinked++;
    }
  return out;
}

const labels = (n: number) =>
  fc.array(fc.option(fc.constantFrom('L1', 'L2', 'L3', 'L4', ''), { nil: null }), { minLength: n, maxLength: n });

it('equal the enumeration of every record pair', () => {
  fc.assert(
    fc.property(
      fc
        .integer({ min: 0, max: 25 })
        .chain((n) =>
          fc.tuple(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }), labels(n), labels(n)),
        ),
      ([entity, a, b]) => {
        expect(pairFlips(entity, a, b)).toEqual(enumerated(entity, a, b));
      },
    ),
  );
});

it('a hand-made case: one entity split, two merged', () => {
  // Records 0-1 entity 0, 2-3 entity 1, 4 entity 2. A: {0,1} {2,3} {4}; B: {0} {1} {2,3,4}.
  const flips = pairFlips([0, 0, 1, 1, 2], ['a', 'a', 'b', 'b', 'c'], ['x', 'y', 'z', 'z', 'z']);
  expect(flips).toEqual({
    truePairsNewlyLinked: 0,
    truePairsNewlyUnlinked: 1,
    nonPairsNewlyLinked: 2,
    nonPairsNewlyUnlinked: 0,
    truncated: false,
  });
});

it('counts the pairs of one cluster of 20,000 records without enumerating them', () => {
  const n = 20000;
  const entity = Array.from({ length: n }, (_, i) => Math.floor(i / 2));
  const flips = pairFlips(
    entity,
    entity.map((e) => `E${e}`),
    entity.map(() => 'everything'),
  );
  expect(flips.nonPairsNewlyLinked).toBe((n * (n - 1)) / 2 - n / 2);
  expect(flips.truePairsNewlyLinked).toBe(0);
  expect(flips.truncated).toBe(false);
});
