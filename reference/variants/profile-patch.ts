/**
 * The profile settings a user of a variant deployment would set (VariantDefinition.profile), merged for several
 * variants at once: objects member by member, disabledExpectations joined, the largest consistencyBudgetMs. Plain JSON
 * (harness/profile.ts validates the result; the reference may not import it).
 */
import type { ActiveVariant, ProfilePatch } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Merges patches: objects member by member, disabledExpectations joined, the largest consistencyBudgetMs. */
export function mergePatches(patches: ProfilePatch[]): ProfilePatch {
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) {
      const old = out[k];
      if (k === 'disabledExpectations') out[k] = [...new Set([...((old as string[]) ?? []), ...(v as string[])])];
      else if (k === 'consistencyBudgetMs') out[k] = Math.max(Number(old ?? 0), Number(v ?? 0));
      else if (isObject(old) && isObject(v)) out[k] = merge(old, v);
      else out[k] = v;
    }
    return out;
  };
  return patches.reduce<Record<string, unknown>>(
    (acc, p) => merge(acc, p as Record<string, unknown>),
    {},
  ) as ProfilePatch;
}

/** The profile settings of one active variant (none when it needs none). */
export const patchOfVariant = (v: ActiveVariant): ProfilePatch => v.definition.profile?.(v.value) ?? {};

/** The profile settings a set of active variants needs, merged. */
export const variantsPatch = (variants: ActiveVariant[]): ProfilePatch => mergePatches(variants.map(patchOfVariant));
