/**
 * What a detection run reports (detection/runner.ts detect): the clean run, and the outcome of each fault, each variant
 * and each drawn deployment. docs/detection.md.
 */
import type { FaultDefinition } from '../reference/faults/catalogue.js';
import type { DrawnOutcome } from './drawn.js';
import type { DetectionRow } from './reporter.js';
import type { FalsePositive, VariantJudgement } from './variants.js';

export interface FaultOutcome {
  fault: FaultDefinition;
  files: string[];
  /** Check IDs that failed citing the fault's requirement. */
  caughtBy: string[];
  /** Every check that failed or errored in the fault's run. */
  failing: string[];
  runFailed: boolean;
  ms: number;
  problem?: string;
}

export interface VariantOutcome extends VariantJudgement {
  /** As REFERENCE_VARIANTS lists it: `name` or `name=value`. */
  variant: string;
  name: string;
  judge: 'pass' | 'no-fail';
  /** The bundle (shared reference) it first ran in. */
  bundle: string;
  /**
   * How its verdict was reached: its bundle's full run ('bundle'; 'alone' when the bundle held only it), or, when its
   * bundle had false positives, a run of it alone restricted to the checks citing the requirements of the bundle's
   * failing checks ('failing checks alone').
   */
  run: 'bundle' | 'alone' | 'failing checks alone';
  passed: boolean;
  /**
   * Checks that could not verify (skip) under the variant but did on the clean reference: the run is incomplete there.
   */
  newSkips: string[];
  problem?: string;
}

export interface VariantsReport {
  outcomes: VariantOutcome[];
  passed: number;
  /** Bundles that failed although each of their variants passed alone: failures from combining them. */
  interactions: Array<{ bundle: string; variants: string[]; falsePositives: FalsePositive[] }>;
  /** Bundles of the first pass, with their variants. */
  bundles: Array<{ name: string; variants: string[] }>;
  /**
   * Time of the bundle pass (with the drawn deployments, when any) and of the pass re-running failing bundles' variants
   * alone (their failing checks), ms.
   */
  bundleMs: number;
  aloneMs: number;
  ms: number;
  /** The drawn deployments, run in the bundle pass's vitest process (absent when none was asked for). */
  drawn?: DrawnReport;
}

export interface DrawnReport {
  outcomes: DrawnOutcome[];
  passed: number;
  /** The run seed of their generated data (CONFORMANCE_SEED of the replay lines). */
  runSeed: number;
}

export interface DetectionReport {
  clean: {
    ms: number;
    checks: number;
    falsePositives: Array<{ checkId: string; verdict: string; message?: string }>;
    problem?: string;
  };
  /** Every check row of the fault runs (project = bundle name), for timing analysis. */
  rows?: DetectionRow[];
  faults: FaultOutcome[];
  caught: number;
  /** Variant runs (absent when none was asked for). */
  variants?: VariantsReport;
  ms: number;
}
