/**
 * The embedded reference's settings from the environment: REFERENCE_FAULTS (names from reference/faults/catalogue.ts),
 * REFERENCE_FOREIGN_DATA (1 loads foreign data, reference/faults/foreign-data.ts), REFERENCE_GROUPED_BY_SOURCE (always
 * | on-request, reference/views.ts), REFERENCE_MATCH_THRESHOLD (0..1), REFERENCE_VARIANTS (names and values from
 * reference/variants/catalogue.ts) and REFERENCE_LATENCY_MS / REFERENCE_JITTER_MS (ms, 0..60000,
 * reference/variants/transport.ts). Options of startReference win over them. Commands validate them before anything
 * starts (`referenceSettings`), so a misspelt fault name stops a run with one line (exit code 2) instead of a stack
 * trace.
 */
import { closest, distance } from 'fastest-levenshtein';
import { FAULTS } from './faults/catalogue.js';
import { parseFaultList } from './faults/registry.js';
import { type GroupedBySource, groupedBySourceSetting } from './views.js';
import { ReferenceSettingError } from './variants/errors.js';
import { type VariantSpec, VariantSet, parseVariantList } from './variants/registry.js';
import { latencySettings } from './variants/transport.js';
import { VARIANT_LIST } from './variants/catalogue.js';

export { ReferenceSettingError };

/** One line naming the setting (ReferenceSettingError carries a single message). */
const settingError = (setting: string, message: string) => new ReferenceSettingError(`Setting ${setting}: ${message}`);

export interface ReferenceEnvSettings {
  faults: string[];
  variants: VariantSpec[];
  foreignData: boolean;
  groupedBySource: GroupedBySource;
  matchThreshold?: number;
}

/** "unknown fault x (did you mean y?)" for each name not in `known`. */
function unknownNames(kind: string, names: string[], known: string[]): string | undefined {
  const unknown = names.filter((n) => !known.includes(n));
  if (!unknown.length) return undefined;
  return unknown
    .map((n) => {
      const near = closest(n, known);
      return (
        `unknown ${kind} ` +
        `${JSON.stringify(n)}${distance(n, near) <= Math.max(3, Math.floor(n.length / 4)) ? ` (did you mean ${near}?)` : ''}`
      );
    })
    .join('; ');
}

/**
 * Reads and validates the reference settings.
 * @throws ReferenceSettingError naming the first bad setting
 */
export function referenceSettings(env: Record<string, string | undefined>): ReferenceEnvSettings {
  const faults = parseFaultList(env.REFERENCE_FAULTS);
  const bad = unknownNames('fault', faults, [...FAULTS.keys()]);
  if (bad) throw settingError('REFERENCE_FAULTS', `${bad}; npm run detection -- --list lists the faults`);
  // Variants and latency are validated where they are defined (VariantError, ReferenceSettingError: one line each).
  const variants = parseVariantList(env.REFERENCE_VARIANTS);
  const badVariant = unknownNames(
    'variant',
    variants.map((v) => v.name),
    VARIANT_LIST.map((v) => v.name),
  );
  if (badVariant)
    throw settingError('REFERENCE_VARIANTS', `${badVariant}; npm run detection -- --list lists the variants`);
  try {
    new VariantSet(variants);
  } catch (e) {
    if (e instanceof ReferenceSettingError) throw settingError('REFERENCE_VARIANTS', e.message);
    throw e;
  }
  latencySettings({}, env);
  const foreign = env.REFERENCE_FOREIGN_DATA ?? '';
  if (!['', '0', '1'].includes(foreign))
    throw settingError('REFERENCE_FOREIGN_DATA', `expected 1 (load foreign data) or 0, got ${JSON.stringify(foreign)}`);
  let groupedBySource: GroupedBySource | undefined;
  try {
    groupedBySource = groupedBySourceSetting(env.REFERENCE_GROUPED_BY_SOURCE);
  } catch (e) {
    throw settingError('REFERENCE_GROUPED_BY_SOURCE', (e as Error).message.replace(/^[A-Z_]+: /, ''));
  }
  const rawThreshold = env.REFERENCE_MATCH_THRESHOLD;
  const matchThreshold = rawThreshold ? Number(rawThreshold) : undefined;
  if (matchThreshold !== undefined && !(matchThreshold >= 0 && matchThreshold <= 1))
    throw settingError(
      'REFERENCE_MATCH_THRESHOLD',
      `expected a number from 0 to 1, got ${JSON.stringify(rawThreshold)}`,
    );
  return {
    faults,
    variants,
    foreignData: foreign === '1',
    groupedBySource: groupedBySource ?? 'always',
    ...(matchThreshold !== undefined ? { matchThreshold } : {}),
  };
}
