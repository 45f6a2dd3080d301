/**
 * Reply resources that the three services share, parameterised by the identity schema.
 *
 * Source: organization-identity-api.md, Resources ("Search result", "Relationship", "Notification page") and Endpoints
 * (reply content of the query operations); person-provider-identity-api.md, Resources ("Person reply content members").
 */
import { z } from 'zod';
import { DateTimeString, Domain, SourceRef, arr, obj, opt } from './wire.js';

/** `identityGroupedBySource[]` element: holds a source reference in `source`. */
export const IdentityPerSource = obj({ source: opt(SourceRef) });

/** Members every identity-returning reply may carry (nativeIdQuery, demographicsQuery, ...). */
export const identityReplyShape = <I extends z.ZodType>(identity: I) => ({
  identityGroupedBySource: arr(IdentityPerSource),
  customerSources: arr(z.unknown()),
  linkId: opt(z.string()),
  identity: opt(identity),
  domains: arr(Domain),
  // Structure keyed by view name: "not shown" in the seed, so any object.
  customizedIdentities: opt(z.record(z.string(), z.unknown())),
});

/**
 * Search result (element of `content.searchResults`). `matchScore` (a number in [0, 1]) and `sameIdentity` (Y, U or N)
 * are required. Source: organization-identity-api.md, "Search result".
 */
export const SearchResult = <I extends z.ZodType>(identity: I) =>
  obj({
    identityGroupedBySource: arr(IdentityPerSource),
    matchScore: z.number().min(0).max(1),
    customerSources: arr(z.unknown()),
    linkId: opt(z.string()),
    identity: opt(identity),
    sameIdentity: z.enum(['Y', 'U', 'N']),
    domains: arr(Domain),
    customizedIdentities: opt(z.record(z.string(), z.unknown())),
  });

/**
 * Relationship. Subject and object member names differ between documents, so both the seed's (`subjectServiceId`) and
 * the vendor's (`subjectVeratoId`) are read; the profile says which is sent.
 * Source: organization-identity-api.md, Resources, "Relationship".
 */
export const Relationship = obj({
  id: opt(z.string()),
  relationshipVerb: opt(z.string()),
  inverseRelationshipVerb: opt(z.string()),
  subjectServiceId: opt(z.string()),
  objectServiceId: opt(z.string()),
  domain: opt(z.string()),
  trustFactor: opt(z.string()),
  details: opt(z.record(z.string(), z.unknown())),
  status: opt(z.string()),
  startDate: opt(DateTimeString),
  endDate: opt(DateTimeString),
});

/**
 * Notification page. Its table has no "Required" column (unlike Search result's) and no member of it is marked
 * required, so each may be absent or null; the paging rules judge what is there.
 * Source: organization-identity-api.md, Resources, "Notification page" ("No other field is marked required", Resources,
 * Organization identity).
 */
export const NotificationPage = obj({
  customerId: opt(z.string()),
  hasNext: opt(z.boolean()),
  // Fields of a notification: "not shown".
  notifications: arr(z.unknown()),
  totalElements: opt(z.number().int().min(0)),
});

/** searchNotifications request content. */
export const NotificationQuery = obj({
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  startDate: DateTimeString,
  endDate: DateTimeString,
});
