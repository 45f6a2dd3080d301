/**
 * The deployment profile: every gap the seeds leave ("not shown") that a check needs, as a typed, documented setting
 * with a default. Defaults serve the embedded reference; a user overrides any of them with a JSON file named by
 * CONFORMANCE_PROFILE.
 *
 * A setting here never makes a check stricter than the seed; it only pins what the seed leaves open, or turns an
 * EXPECT-level requirement off.
 */
import { readFileSync } from 'node:fs';
import { closest } from 'fastest-levenshtein';
import { z } from 'zod';
import { SettingsError } from './config.js';

const ms = z.number().int().min(0).max(600000);

// Every object of the profile is strict at every level (z.strictObject): a misspelt member is refused, never ignored.
export const ProfileSchema = z.strictObject({
  /**
   * How long a read may lag behind a write (search after a post, notifications after a change), in ms. null =
   * automatic: 0 against the embedded reference, 10000 against a configured deployment.
   */
  consistencyBudgetMs: ms.nullable().default(null),
  /** Pause between polls while waiting for a lagging read, in ms. */
  pollIntervalMs: ms.default(250),
  /** Where a posted identity carries its source reference (seed: "not shown"; vendor OpenAPI: identity.sources). */
  sourcePlacement: z.enum(['identity.sources', 'content.source']).default('identity.sources'),
  /** Response views requested where a check needs the identity back (seed default: DEFAULT). */
  responseViews: z.array(z.string()).default(['DEFAULT']),
  /** Wire member names the seeds do not show. */
  members: z
    .strictObject({
      /** restoreSource request member naming the source (seed: "not shown"; by analogy with sourceToSoftDelete). */
      restoreSource: z.string().default('sourceToRestore'),
      /** person deactivateSourceWs member (vendor OpenAPI). */
      deactivateSource: z.string().default('sourceToDeactivate'),
      /** person reactivateSourceWs member (vendor OpenAPI). */
      reactivateSource: z.string().default('sourceToReactivate'),
      /** Relationship subject and object members (organization seed: subjectServiceId / objectServiceId). */
      relationshipSubject: z.string().default('subjectServiceId'),
      relationshipObject: z.string().default('objectServiceId'),
    })
    .prefault({}),
  /** A relationship the deployment's configured relationship definitions accept (verbs: "not shown"). */
  relationship: z
    .strictObject({
      verb: z.string().default('affiliatedWith'),
      inverseVerb: z.string().nullable().default('affiliateOf'),
      status: z.string().nullable().default('ACTIVE'),
      domain: z.string().nullable().default(null),
    })
    .prefault({}),
  notifications: z
    .strictObject({
      /** Number of the first page (seed: bounds "not shown"). */
      firstPage: z.number().int().min(0).max(1).default(0),
      /** Page size used to walk a window; small so paging is exercised. */
      pageSize: z.number().int().min(1).max(1000).default(3),
      /**
       * Page size used where the suite reads the feed to find its own changes (walks, a change's notification): large,
       * so a busy feed takes few requests (seed: bounds "not shown"; a deployment that serves fewer per page is
       * followed by hasNext).
       */
      readPageSize: z.number().int().min(1).max(1000).default(50),
      /**
       * Most pages walked for one window (a bound so a busy staging feed cannot stall the run). A window longer than
       * this is not judged: the feed's order is not shown, so what lies beyond the pages read is unknown, and the
       * checks that need it skip, naming this setting.
       */
      maxPages: z.number().int().min(1).max(10000).default(200),
      /**
       * Largest difference between the suite's clock and the deployment's, in ms: notification windows are widened (or,
       * for a closed window, moved into the past) by it. null = automatic: 0 against the embedded reference, 5000
       * against a configured deployment.
       */
      clockSkewMs: ms.nullable().default(null),
    })
    .prefault({}),
  /**
   * What nativeIdQuery shows for a soft-deleted source (seed: "not shown"). 'absent': not found, or found with no
   * active identity; 'any': not checked.
   */
  softDeletedLookup: z.enum(['absent', 'any']).default('absent'),
  /** EXPECT-level requirements switched off for this deployment, by ID. */
  disabledExpectations: z.array(z.string()).default([]),
  /**
   * Scenarios that create data sources (person createDataSource) leave sources behind on a real deployment. null =
   * automatic: on against the embedded reference, off against a configured one.
   */
  createDataSources: z.boolean().nullable().default(null),
  /** Person service: which auth scheme to use when both credentials are set, and the schema label. */
  person: z
    .strictObject({
      auth: z.enum(['bearer', 'basic']).default('bearer'),
      schemaVersion: z.enum(['2026.1.2', '1.0.0']).default('2026.1.2'),
      /**
       * Relationship subject and object members on the person service (seed: payload "not shown"; vendor description:
       * subjectVeratoId / objectVeratoId). The search filter members follow the vendor description
       * (relationshipFilter.filterBy...VeratoId).
       */
      relationshipSubject: z.string().default('subjectVeratoId'),
      relationshipObject: z.string().default('objectVeratoId'),
    })
    .prefault({}),
  /**
   * Provider service: where an identity carries its provider type and the values it takes (seed: types 1 and 2 exist,
   * identity fields "not shown"; the vendor examples put them in the NPI entity type code). `typeMember` is a dot path
   * inside the identity; arrays on the way are walked element by element. Values are sent as given and compared as
   * strings.
   */
  provider: z
    .strictObject({
      typeMember: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/)
        .default('npis.entityTypeCode'),
      practitionerType: z.string().min(1).default('1'),
      healthFacilityType: z.string().min(1).default('2'),
    })
    .prefault({}),
});

export type Profile = z.infer<typeof ProfileSchema>;

/** Reads the profile JSON (or the defaults when no path is given). @throws SettingsError naming CONFORMANCE_PROFILE. */
export function loadProfile(path?: string): Profile {
  if (!path) return ProfileSchema.parse({});
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new SettingsError('CONFORMANCE_PROFILE', 'a readable JSON file', `${path} (${(e as Error).message})`);
  }
  const parsed = ProfileSchema.safeParse(raw);
  if (!parsed.success)
    throw new SettingsError(
      'CONFORMANCE_PROFILE',
      `a valid deployment profile (${profileIssue(parsed.error.issues[0]!)})`,
      path,
    );
  return parsed.data;
}

/** Member names of the profile object at `path` (the root when empty), or [] when there is none. */
function membersAt(path: PropertyKey[]): string[] {
  let schema: z.ZodType = ProfileSchema;
  for (const key of path) {
    while (
      schema instanceof z.ZodDefault ||
      schema instanceof z.ZodPrefault ||
      schema instanceof z.ZodNullable ||
      schema instanceof z.ZodOptional
    )
      schema = (schema as z.ZodDefault).unwrap() as z.ZodType;
    if (!(schema instanceof z.ZodObject)) return [];
    schema = (schema.shape as Record<string, z.ZodType>)[String(key)]!;
  }
  while (
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodOptional
  )
    schema = (schema as z.ZodDefault).unwrap() as z.ZodType;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/**
 * One profile issue with the full member path, e.g. "relationship.verbb: not a profile member (did you mean
 * relationship.verb?)".
 */
export function profileIssue(issue: z.core.$ZodIssue): string {
  const at = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const known = membersAt(issue.path);
    return issue.keys
      .map((k) => {
        const near = known.length ? closest(k, known) : undefined;
        return (
          `${[...at, k].join('.')}: not a profile ` +
          `member${near ? ` (did you mean ${[...at, near].join('.')}?)` : ''}`
        );
      })
      .join('; ');
  }
  return `${at.join('.') || 'root'}: ${issue.message}`;
}

/** The profile with its automatic values resolved for an embedded or a configured target. */
export function resolveProfile(profile: Profile, embedded: boolean): Profile {
  return {
    ...profile,
    consistencyBudgetMs: profile.consistencyBudgetMs ?? (embedded ? 0 : 10000),
    notifications: {
      ...profile.notifications,
      clockSkewMs: profile.notifications.clockSkewMs ?? (embedded ? 0 : 5000),
    },
    createDataSources: profile.createDataSources ?? embedded,
  };
}

/** The relationship subject and object member names a service uses (person has its own settings). */
export function relationshipMembers(profile: Profile, service: string): { subject: string; object: string } {
  return service === 'person'
    ? { subject: profile.person.relationshipSubject, object: profile.person.relationshipObject }
    : { subject: profile.members.relationshipSubject, object: profile.members.relationshipObject };
}
