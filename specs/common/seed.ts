/**
 * A sentence of the seed documents, as the specification, the variants and the reports cite it: the document, the
 * section, and a short quote.
 */

export type SeedFile = 'organization-identity-api.md' | 'person-provider-identity-api.md';

/** The seed document that specifies each service. */
export const SEED_OF = {
  organization: 'organization-identity-api.md',
  person: 'person-provider-identity-api.md',
  provider: 'person-provider-identity-api.md',
} as const satisfies Record<string, SeedFile>;

export interface SeedCitation {
  file: SeedFile;
  section: string;
  quote: string;
}

/** A sentence of organization-identity-api.md. */
export const orgSeed = (section: string, quote: string): SeedCitation => ({
  file: 'organization-identity-api.md',
  section,
  quote,
});

/** A sentence of person-provider-identity-api.md. */
export const ppSeed = (section: string, quote: string): SeedCitation => ({
  file: 'person-provider-identity-api.md',
  section,
  quote,
});

/** `file, section: "quote"`, as reports and listings print a citation. */
export const citeText = (s: SeedCitation) => `${s.file}, ${s.section}: "${s.quote}"`;
