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

/** A whole number from `min` to `max`. */
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const ms = int(0, 600000);

// Every object of the profile is strict at every level (z.strictObject): a misspelt member is refused, never ignored.
// Each member's description is its documentation: docs/deployment-profile.md is written from them
// (run/docs/profile.ts).
export const ProfileSchema = z.strictObject({
  consistencyBudgetMs: ms
    .nullable()
    .default(null)
    .describe(
      'how long a read may lag behind a write (search after a post, notifications after a change), ms; overruns are ' +
        'reported. null: automatic, 0 against the embedded reference, 10000 against a configured deployment',
    ),
  pollIntervalMs: ms.default(250).describe('pause between polls while waiting for a lagging read, ms'),
  sourcePlacement: z
    .enum(['identity.sources', 'content.source'])
    .default('identity.sources')
    .describe(
      'where a posted identity carries its source reference (seed: "not shown"; vendor OpenAPI: identity.sources)',
    ),
  responseViews: z
    .array(z.string())
    .default(['DEFAULT'])
    .describe('response views requested where a check reads the identity back (seed default: DEFAULT)'),
  members: z
    .strictObject({
      restoreSource: z
        .string()
        .default('sourceToRestore')
        .describe(
          'restoreSource request member naming the source (seed: "not shown"; by analogy with sourceToSoftDelete)',
        ),
      deactivateSource: z
        .string()
        .default('sourceToDeactivate')
        .describe('person deactivateSourceWs member (vendor OpenAPI)'),
      reactivateSource: z
        .string()
        .default('sourceToReactivate')
        .describe('person reactivateSourceWs member (vendor OpenAPI)'),
      relationshipSubject: z
        .string()
        .default('subjectServiceId')
        .describe(
          'organization and provider relationship subject member (organization seed: subjectServiceId; the vendor ' +
            'contract: subjectVeratoId, docs/vendor-contract.md)',
        ),
      relationshipObject: z
        .string()
        .default('objectServiceId')
        .describe(
          'organization and provider relationship object member (seed: objectServiceId; vendor: objectVeratoId)',
        ),
    })
    .prefault({})
    .describe('wire member names the seeds do not show'),
  relationship: z
    .strictObject({
      verb: z.string().default('affiliatedWith').describe("a relationship verb the deployment's definitions accept"),
      inverseVerb: z.string().nullable().default('affiliateOf').describe('its inverse verb (null: not sent)'),
      status: z.string().nullable().default('ACTIVE').describe('the status sent (null: not sent)'),
      domain: z.string().nullable().default(null).describe('the domain sent (null: not sent)'),
    })
    .prefault({})
    .describe('a relationship the deployment\'s configured relationship definitions accept (verbs: "not shown")'),
  notifications: z
    .strictObject({
      firstPage: int(0, 1).default(0).describe('number of the first page (seed: bounds "not shown")'),
      pageSize: int(1, 1000).default(3).describe('page size used to walk a window: small, so paging is exercised'),
      readPageSize: int(1, 1000)
        .default(50)
        .describe(
          "page size used where the suite reads the feed to find its own changes (walks, a change's notification): " +
            'large, so a busy feed takes few requests (a deployment that serves fewer a page is followed by hasNext)',
        ),
      maxPages: int(1, 10000)
        .default(200)
        .describe(
          'most pages walked for one window, so a busy staging feed cannot stall the run; a window longer than that ' +
            "is not judged (the feed's order is not shown): its checks skip, naming this setting",
        ),
      clockSkewMs: ms
        .nullable()
        .default(null)
        .describe(
          "largest difference between the suite's clock and the deployment's, ms: notification windows are widened " +
            '(a closed window moved into the past) by it. null: automatic, 0 against the embedded reference, 5000 ' +
            'against a configured deployment',
        ),
    })
    .prefault({})
    .describe('reading searchNotifications (bounds of pageNumber and pageSize: "not shown")'),
  softDeletedLookup: z
    .enum(['absent', 'any'])
    .default('absent')
    .describe(
      'what nativeIdQuery shows for a soft-deleted source (seed: "not shown"): absent (not found, or found with no ' +
        'active identity) is checked; any: not checked',
    ),
  disabledExpectations: z
    .array(z.string())
    .default([])
    .describe('EXPECT-level requirement IDs switched off for this deployment'),
  createDataSources: z
    .boolean()
    .nullable()
    .default(null)
    .describe(
      'run the checks that create person data sources, which no operation deletes (harness/irreversible.ts; the ' +
        'certification lists them when off). null: automatic, on against the embedded reference, off against a ' +
        'configured deployment',
    ),
  person: z
    .strictObject({
      auth: z
        .enum(['bearer', 'basic'])
        .default('bearer')
        .describe('the auth scheme used when both a token and basic credentials are set'),
      schemaVersion: z.enum(['2026.1.2', '1.0.0']).default('2026.1.2').describe('person schema label'),
      relationshipSubject: z
        .string()
        .default('subjectVeratoId')
        .describe(
          'person relationship subject member (seed: payload "not shown"; vendor OpenAPI); the search filters ' +
            'follow the vendor description (relationshipFilter.filterBy...VeratoId)',
        ),
      relationshipObject: z
        .string()
        .default('objectVeratoId')
        .describe('person relationship object member (vendor OpenAPI)'),
      coordinates: z
        .enum(['number', 'string', 'omit'])
        .default('number')
        .describe(
          "how person requests send an address's latitude and longitude: number (the seed), string (the vendor's " +
            'contract, whose NUMBER is a string) or omit (left out); replies are judged by the seed whatever this says ' +
            '(docs/vendor-contract.md)',
        ),
      nameMembers: z
        .enum(['seeds', 'vendor'])
        .default('seeds')
        .describe(
          'the member names person requests give a name: seeds (firstName, middleName, lastName) or vendor (first, ' +
            "middle, last: the vendor's contract, docs/vendor-contract.md)",
        ),
      deathDetails: z
        .enum(['seeds', 'vendor', 'omit'])
        .default('seeds')
        .describe(
          'how person requests send deathDetails: seeds (deathIndicator, a boolean, and deathDate), vendor (deceased, ' +
            "Y or N, and dateOfDeath: the vendor's contract) or omit (left out; docs/vendor-contract.md)",
        ),
    })
    .prefault({})
    .describe('person service'),
  provider: z
    .strictObject({
      typeMember: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/)
        .default('npis.entityTypeCode')
        .describe(
          'where a provider identity carries its type, a dot path inside it (arrays on the way walked element by ' +
            'element; seed: types 1 and 2, identity fields "not shown"; vendor examples: the NPI entity type code)',
        ),
      practitionerType: z
        .string()
        .min(1)
        .default('1')
        .describe('the type value of a practitioner (sent as given, compared as a string)'),
      healthFacilityType: z.string().min(1).default('2').describe('the type value of a health facility'),
      searchIdentitySource: z
        .boolean()
        .default(false)
        .describe(
          "give every demographicsSearch and demographicsQuery identity a source reference, as the vendor's contract " +
            'requires (seed: provider payloads "not shown"): a test source with a native ID of the run\'s namespace ' +
            'that no record has (docs/vendor-contract.md)',
        ),
    })
    .prefault({})
    .describe('provider service'),
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

/** A profile schema without its wrappers (default, prefault, nullable, optional), and whether null is a value of it. */
export function unwrapMember(schema: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  let s = schema;
  let nullable = false;
  for (;;) {
    if (s instanceof z.ZodNullable) nullable = true;
    if (
      s instanceof z.ZodDefault ||
      s instanceof z.ZodPrefault ||
      s instanceof z.ZodNullable ||
      s instanceof z.ZodOptional
    )
      s = (s as z.ZodDefault).unwrap() as z.ZodType;
    else return { inner: s, nullable };
  }
}

/** Member names of the profile object at `path` (the root when empty), or [] when there is none. */
function membersAt(path: PropertyKey[]): string[] {
  let schema: z.ZodType = ProfileSchema;
  for (const key of path) {
    schema = unwrapMember(schema).inner;
    if (!(schema instanceof z.ZodObject)) return [];
    schema = (schema.shape as Record<string, z.ZodType>)[String(key)]!;
  }
  schema = unwrapMember(schema).inner;
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
