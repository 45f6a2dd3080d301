/**
 * The variant registry: reads `REFERENCE_VARIANTS=name[=value],...` (or the `variants` option of startReference),
 * checks each name and value against the catalogue, and gives the hooks of the active variants (reference/hooks.ts, the
 * same hook points faults use).
 *
 * Errors: VariantError, one line naming the variant (unknown name, bad value, value given to a variant that takes none,
 * two variants that conflict, one variant twice).
 */
import type { ServiceName } from '../../specs/common/model.js';
import type { ReferenceHook } from '../hooks.js';
import { VARIANTS } from './catalogue.js';
import { drawDeployment } from './drawn.js';
import { VariantError } from './errors.js';
import type { ActiveVariant, VariantDefinition } from './types.js';

export { ReferenceSettingError, VariantError } from './errors.js';

/** A variant as written: `name` or `name=value`. */
export interface VariantSpec {
  name: string;
  value?: string;
}

/**
 * Parses `name[=value],...` (REFERENCE_VARIANTS); empty or undefined gives none. `drawn=<seed>` stands for the variants
 * that seed draws (reference/variants/drawn.ts).
 * @throws VariantError for `drawn` without an integer seed
 */
export function parseVariantList(raw: string | undefined): VariantSpec[] {
  return splitVariantList(raw).flatMap((v) => {
    if (v.name !== DRAWN) return [v];
    const seed = Number(v.value);
    if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31 - 1)
      throw new VariantError(
        `reference variant drawn needs a seed, an integer from 0 to 2147483647 (drawn=<seed>), got "${v.value ?? ''}"`,
      );
    return splitVariantList(drawDeployment(seed).join(','));
  });
}

/** The name that stands for a drawn deployment: `drawn=<seed>`. */
export const DRAWN = 'drawn';

function splitVariantList(raw: string | undefined): VariantSpec[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const at = s.indexOf('=');
      return at < 0 ? { name: s } : { name: s.slice(0, at).trim(), value: s.slice(at + 1).trim() };
    });
}

/** `name` or `name=value`, as REFERENCE_VARIANTS lists it. */
export const formatVariant = (v: VariantSpec) => (v.value === undefined ? v.name : `${v.name}=${v.value}`);

/** The definition and parsed value of one variant spec. @throws VariantError */
export function resolveVariant(spec: VariantSpec | string): ActiveVariant {
  const s = typeof spec === 'string' ? (parseVariantList(spec)[0] ?? { name: '' }) : spec;
  const definition: VariantDefinition | undefined = VARIANTS.get(s.name);
  if (!definition)
    throw new VariantError(`unknown reference variant "${s.name}" (known: ${[...VARIANTS.keys()].join(', ')})`);
  if (!definition.parameter) {
    if (s.value !== undefined) throw new VariantError(`reference variant ${s.name} takes no value, got "${s.value}"`);
    return { definition, value: undefined };
  }
  const raw = s.value === undefined || s.value === '' ? definition.parameter.default : s.value;
  try {
    return { definition, raw, value: definition.parameter.parse(raw) };
  } catch (e) {
    throw new VariantError(`reference variant ${s.name}: ${(e as Error).message} (${definition.parameter.describe})`);
  }
}

/** Whether two variants may share one reference (neither lists the other as a conflict, neither runs alone). */
export function compatible(a: VariantDefinition, b: VariantDefinition): boolean {
  if (a.name === b.name || a.alone || b.alone) return false;
  return !(a.conflicts ?? []).includes(b.name) && !(b.conflicts ?? []).includes(a.name);
}

/** The hooks of one active variant, limited to its services. */
function hooksOf(v: ActiveVariant): ReferenceHook[] {
  const hooks = v.definition.hooks(v.value);
  const services = v.definition.services;
  if (!services) return hooks;
  return hooks.flatMap((h) =>
    h.service ? (services.includes(h.service) ? [h] : []) : services.map((service: ServiceName) => ({ ...h, service })),
  );
}

export class VariantSet {
  readonly active: ActiveVariant[];
  readonly hooks: ReferenceHook[];

  /** @throws VariantError for an unknown name, a bad value, a repeated or conflicting variant. */
  constructor(specs: Iterable<VariantSpec | string> = []) {
    this.active = [...specs].map(resolveVariant);
    for (let i = 0; i < this.active.length; i++)
      for (let j = 0; j < i; j++) {
        const [a, b] = [this.active[i]!.definition, this.active[j]!.definition];
        if (a.name === b.name) throw new VariantError(`reference variant ${a.name} is listed twice`);
        if ((a.conflicts ?? []).includes(b.name) || (b.conflicts ?? []).includes(a.name))
          throw new VariantError(`reference variants ${b.name} and ${a.name} cannot be on together`);
      }
    this.hooks = this.active.flatMap(hooksOf);
  }
}
