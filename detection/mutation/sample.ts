/**
 * A seeded sample of mutants: a Fisher-Yates shuffle with pure-rand's xoroshiro128+, so that a
 * seed picks the same mutants, in the same order, wherever it runs. The order is the order the
 * mutants are run in, so a measure cut short by its time limit is still a random sample.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** `n` of `items` (all of them, shuffled, when `n` is at least their count), drawn with `seed`. */
export function sampleOf<T>(items: readonly T[], n: number, seed: number): T[] {
  const rng = xoroshiro128plus(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, Math.min(n, out.length));
}
