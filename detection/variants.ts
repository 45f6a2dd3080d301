/**
 * Variant runs of detection: which variants share a reference (bundles), the profile a bundle's checks run under (the
 * default profile with its variants' settings), and how a variant run is judged (false positives). See
 * docs/detection.md, "Variants".
 */
import { ProfileSchema, type Profile, resolveProfile } from '../harness/profile.js';
import { judge } from '../report/known-failures.js';
import type { CheckResult } from '../report/results.js';
import { requirementIndex } from '../specs/services.js';
import { VARIANT_LIST } from '../reference/variants/catalogue.js';
import { compatible, formatVariant, resolveVariant } from '../reference/variants/registry.js';
import type { ActiveVariant, ProfilePatch, VariantDefinition } from '../reference/variants/types.js';
import { mergePatches, patchOfVariant } from '../reference/variants/profile-patch.js';
import type { DetectionRow } from './reporter.js';

/** The run seed of a detection run's generated data when none is given (RunInfo.seed, as CONFORMANCE_SEED). */
export const DEFAULT_RUN_SEED = 12345;

/** Most variants one reference carries at once (a failing bundle is re-run variant by variant). */
export const BUNDLE_SIZE = 9;

/** One variant as detection runs it: the spec REFERENCE_VARIANTS would list, and its definition. */
export interface PlannedVariant {
  /** `name` or `name=value`. */
  spec: string;
  active: ActiveVariant;
}

/** Every variant of the catalogue at each value detection runs it with (`parameter.detection`, else the default). */
export const catalogueSpecs = (): string[] =>
  VARIANT_LIST.flatMap((v) => (v.parameter?.detection ? v.parameter.detection.map((x) => `${v.name}=${x}`) : [v.name]));

/** The catalogue's variants (catalogueSpecs), or the given specs. @throws VariantError */
export const plannedVariants = (specs?: string[]): PlannedVariant[] =>
  (specs ?? catalogueSpecs()).map((spec) => {
    const active = resolveVariant(spec);
    return { spec: formatVariant({ name: active.definition.name, value: active.raw }), active };
  });

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Scalar settings two patches give different values for (their variants cannot share a profile). */
function clashes(a: ProfilePatch, b: ProfilePatch, path = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(a)) {
    const w = (b as Record<string, unknown>)[k];
    if (w === undefined || k === 'consistencyBudgetMs' || k === 'disabledExpectations') continue;
    if (isObject(v) && isObject(w)) out.push(...clashes(v as ProfilePatch, w as ProfilePatch, `${path}${k}.`));
    else if (JSON.stringify(v) !== JSON.stringify(w)) out.push(`${path}${k}`);
  }
  return out;
}

export const patchOf = (v: PlannedVariant): ProfilePatch => patchOfVariant(v.active);
export { mergePatches };

/** The profile checks run under against a reference with these variants (embedded defaults resolved). */
export function profileOf(variants: PlannedVariant[]): Profile {
  return resolveProfile(ProfileSchema.parse(mergePatches(variants.map(patchOf))), true);
}

/** Whether a variant may join a bundle: compatible with every member, no clashing profile setting, same judge. */
function fits(bundle: PlannedVariant[], v: PlannedVariant): boolean {
  const judgeOf = (d: VariantDefinition) => d.judge ?? 'pass';
  return bundle.every(
    (m) =>
      compatible(m.active.definition, v.active.definition) &&
      judgeOf(m.active.definition) === judgeOf(v.active.definition) &&
      clashes(patchOf(m), patchOf(v)).length === 0,
  );
}

/** Groups variants into bundles of compatible ones (at most `size` each), in catalogue order. */
export function bundleVariants(variants: PlannedVariant[], size = BUNDLE_SIZE): PlannedVariant[][] {
  const bundles: PlannedVariant[][] = [];
  for (const v of variants) {
    const home = bundles.find((b) => b.length < size && fits(b, v));
    if (home) home.push(v);
    else bundles.push([v]);
  }
  return bundles;
}

/** A check of a variant run that counts against the variant. */
export interface FalsePositive {
  checkId: string;
  verdict: string;
  /** Requirements the failing check named (empty for an error). */
  failedRequirements: string[];
  message?: string;
}

export interface VariantJudgement {
  /** Checks that gate (error, or a failure citing a MUST requirement); for judge 'no-fail', every `fail`. */
  falsePositives: FalsePositive[];
  /** Failures citing EXPECT requirements only: reported, not gating (judge 'pass'). */
  expectOnly: FalsePositive[];
  /** Errors (could not judge): allowed under judge 'no-fail'. */
  errors: number;
  /**
   * Checks that could not judge (judge 'pass'): the run is INCOMPLETE, which is no false failure and is reported apart.
   */
  incomplete: FalsePositive[];
  checks: number;
}

const LEVELS = requirementIndex();
const asResult = (r: DetectionRow) =>
  ({
    checkId: r.checkId,
    verdict: r.verdict,
    failedRequirements: r.failedRequirements,
    verifies: r.verifies,
    ...(r.couldNotJudge ? { couldNotJudge: true } : {}),
  }) as unknown as CheckResult;
const fp = (r: DetectionRow): FalsePositive => ({
  checkId: r.checkId,
  verdict: r.verdict,
  failedRequirements: r.failedRequirements,
  ...(r.message ? { message: r.message } : {}),
});

/** Judges the rows of one variant (or bundle) run, as the conformance gate would (report/known-failures.ts). */
export function judgeVariantRun(rows: DetectionRow[], how: 'pass' | 'no-fail' = 'pass'): VariantJudgement {
  const errors = rows.filter((r) => r.verdict === 'error').length;
  if (how === 'no-fail')
    return {
      falsePositives: rows.filter((r) => r.verdict === 'fail').map(fp),
      expectOnly: [],
      errors,
      incomplete: [],
      checks: rows.length,
    };
  const gate = judge(rows.map(asResult), (id) => LEVELS.get(id)?.level);
  const byId = new Map(rows.map((r) => [r.checkId, r]));
  return {
    falsePositives: gate.gating.map((id) => fp(byId.get(id)!)),
    expectOnly: gate.expectOnly.map((id) => fp(byId.get(id)!)),
    errors,
    incomplete: gate.incomplete.map((id) => fp(byId.get(id)!)),
    checks: rows.length,
  };
}
