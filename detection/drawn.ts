/**
 * Drawn deployments in detection: for each seed, the deployment reference/variants/drawn.ts draws (one legitimate
 * option of every choice the seeds leave open, operating conditions included), run with the whole suite under the
 * profile its users would set. Every gating failure of such a run is a false positive, reported with the draw (the
 * variant specs the seed drew) and a line that replays the failing check against the same deployment:
 * `REFERENCE_VARIANTS=drawn=<seed> CONFORMANCE_SEED=<n> npm run conformance -- <file> -t '<check>'`. See
 * docs/detection.md, "Drawn deployments".
 */
import { drawDeployment } from '../reference/variants/drawn.js';
import type { DetectionRow } from './reporter.js';
import { type FalsePositive, type VariantJudgement, judgeVariantRun } from './variants.js';

/** How many drawn deployments `npm run detection` runs by default (seeds 1 to this). */
export const DEFAULT_DRAWN = 50;

/** One drawn deployment: its seed, its run's name in detection, and the variant specs it drew. */
export interface DrawnDeployment {
  seed: number;
  /** `drawn-<seed>`: the name of its run (RunVariant) in the detection process. */
  name: string;
  /** The variants the seed drew, as REFERENCE_VARIANTS would list them. */
  specs: string[];
}

/** The drawn deployments of these seeds (a small sample for `npm test`, or the detection default). */
export const drawnSpecs = (seeds: number[]): DrawnDeployment[] =>
  seeds.map((seed) => ({ seed, name: `drawn-${seed}`, specs: drawDeployment(seed) }));

/**
 * Seeds written `a-b` (both included) or `a,b,c`. @throws Error with a one-line message naming what was expected
 */
export function parseDrawnSeeds(raw: string): number[] {
  const seed = (s: string) => {
    const n = Number(s.trim());
    if (!/^\d+$/.test(s.trim()) || !Number.isSafeInteger(n) || n > 2 ** 31 - 1)
      throw new Error(`expected seeds as a-b or a,b,c (integers from 0 to 2147483647), got "${raw}"`);
    return n;
  };
  const range = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(raw);
  if (range) {
    const [a, b] = [seed(range[1]!), seed(range[2]!)];
    if (b < a || b - a >= 10000)
      throw new Error(`expected a range a-b with a <= b and at most 10000 seeds, got "${raw}"`);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }
  const seeds = raw.split(',').map(seed);
  if (new Set(seeds).size !== seeds.length) throw new Error(`a seed is listed twice in "${raw}"`);
  return seeds;
}

/** A false positive of a drawn run, with what replays it. */
export interface DrawnFalsePositive extends FalsePositive {
  file: string;
  /** The replay line: the drawn deployment, the run seed, the scenario file and the check's name. */
  replay: string;
}

export interface DrawnOutcome extends Omit<VariantJudgement, 'falsePositives'> {
  seed: number;
  specs: string[];
  passed: boolean;
  /** Gating failures of its run, each a false positive of the suite, with the line that replays it. */
  falsePositives: DrawnFalsePositive[];
  problem?: string;
}

// Escaped by hand, not with escape-string-regexp: that one writes "-" as \x2d, and a replay line is read and copied by
// people.
/** A vitest name pattern (a regular expression) matching exactly this text, in single quotes for a POSIX shell. */
const namePattern = (name: string) => `'${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, `'\\''`)}'`;

/** The line that replays one check of a drawn run against the same deployment with the same data. */
export const replayLine = (seed: number, runSeed: number, file: string, name: string) =>
  `REFERENCE_VARIANTS=drawn=${seed} CONFORMANCE_SEED=${runSeed} npm run conformance -- ${file} -t ${namePattern(name)}`;

/**
 * Judges the rows of one drawn deployment's run as the conformance gate would (judge 'pass': an error, or a failure
 * citing a MUST requirement, is a false positive; a check that could not judge makes the run INCOMPLETE, listed in
 * `incomplete`, not a false positive).
 */
export function judgeDrawnRun(d: DrawnDeployment, rows: DetectionRow[], runSeed: number, output = ''): DrawnOutcome {
  const j = judgeVariantRun(rows, 'pass');
  const byId = new Map(rows.map((r) => [r.checkId, r]));
  const problem = rows.length ? undefined : `its run reported no checks: ${output.slice(-1500)}`;
  return {
    seed: d.seed,
    specs: d.specs,
    passed: !problem && j.falsePositives.length === 0,
    falsePositives: j.falsePositives.map((f) => {
      const row = byId.get(f.checkId)!;
      return { ...f, file: row.file, replay: replayLine(d.seed, runSeed, row.file, row.name ?? f.checkId) };
    }),
    expectOnly: j.expectOnly,
    errors: j.errors,
    incomplete: j.incomplete,
    checks: j.checks,
    ...(problem ? { problem } : {}),
  };
}
