/**
 * The shape of a legitimate variant of the reference deployment: a choice the seeds leave open (the seed sentences that
 * leave it open are part of the entry), the profile settings a user of such a deployment would set, and the hooks
 * (reference/hooks.ts) that make the reference behave so.
 */
import type { ServiceName } from '../../specs/common/model.js';
import type { ReferenceHook } from '../hooks.js';

/** Where a seed leaves the choice open: document, section, and a short quote of the sentence. */
export interface SeedCitation {
  file: 'organization-identity-api.md' | 'person-provider-identity-api.md';
  section: string;
  quote: string;
}

type Json = string | number | boolean | null | Json[] | { [member: string]: Json };

/**
 * Settings of a deployment profile as a user writes them in the profile JSON (harness/profile.ts, which the reference
 * may not import: detection/variants.ts validates them against its schema, and test/variants-reference.test.ts checks
 * every entry's).
 */
export type ProfilePatch = { [setting: string]: Json };

/** A variant's parameter: its default and how a raw `name=value` value is read. */
export interface VariantParameter<T> {
  /** What the value means, for --list and errors, e.g. "lag in ms (0 to 10000)". */
  describe: string;
  default: string;
  /** The values `npm run detection` runs the variant with (default: the default only). */
  detection?: string[];
  /** The value read from its raw text. @throws Error with a message saying what was expected. */
  parse(raw: string): T;
}

/**
 * What a variant run must show to count as passed:
 * - 'pass': no gating failure (an error, or a failure citing a MUST requirement);
 * - 'no-fail': no `fail` verdict at all; errors (could not judge) are allowed (transient failures).
 */
export type VariantJudge = 'pass' | 'no-fail';

export interface VariantDefinition<T = any> {
  /** What REFERENCE_VARIANTS lists; unique. */
  name: string;
  description: string;
  /** The seed sentences that leave this choice open (at least one). */
  seeds: SeedCitation[];
  /** Parameter of a parameterised variant (`name=value`); absent: the variant takes no value. */
  parameter?: VariantParameter<T>;
  /** Services the variant acts on (default: every service). */
  services?: ServiceName[];
  /** Profile settings a user of such a deployment would set (JSON profile, harness/profile.ts). */
  profile?: (value: T) => ProfilePatch;
  judge?: VariantJudge;
  /** Variants that must not share a reference with this one (symmetric; names). */
  conflicts?: string[];
  /** Runs on a reference of its own (detection never bundles it). */
  alone?: boolean;
  /** The hooks that make the reference behave so, for the value given. */
  hooks(value: T): ReferenceHook[];
}

/** A variant switched on, with its parsed value. */
export interface ActiveVariant {
  definition: VariantDefinition;
  /** The raw value (the default when none was given); undefined for a variant without parameter. */
  raw?: string;
  value: unknown;
}
