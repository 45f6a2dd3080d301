/**
 * The names of every operation, as types: the operations tables (specs/<service>/operations.ts), the reference's
 * handlers and the valid requests of the scenarios (scenarios/shared/requests.ts) are records keyed by them, so an
 * operation missing from any of them is a compile error, and a client call naming an operation no service has does not
 * compile.
 *
 * Source: organization-identity-api.md, Endpoints (the sixteen operations the organization and provider services
 * share); person-provider-identity-api.md, Endpoints ("Person service": the person service deactivates and reactivates
 * instead of soft delete and restore, and adds householdQuery and createDataSource).
 */
/** The operations the organization and provider services have, in table order. */
export const SHARED_OPERATIONS = [
  'postIdentity',
  'deleteSourceIdentity',
  'demographicsSearch',
  'demographicsQuery',
  'nativeIdQuery',
  'identityIdQuery',
  'softDeleteSource',
  'restoreSource',
  'mergeIdentities',
  'unmergeIdentities',
  'linkIdentities',
  'unlinkIdentities',
  'addRelationshipService',
  'searchRelationshipsService',
  'deleteRelationshipService',
  'searchNotifications',
] as const;
export type SharedOperation = (typeof SHARED_OPERATIONS)[number];

/** Shared operations the person service does not offer (it deactivates and reactivates instead). */
export const NOT_PERSON = ['softDeleteSource', 'restoreSource'] as const;

/** The operations only the person service has, in table order. */
export const PERSON_ONLY_OPERATIONS = [
  'deactivateSourceWs',
  'reactivateSourceWs',
  'householdQuery',
  'createDataSource',
] as const;
export type PersonOnlyOperation = (typeof PERSON_ONLY_OPERATIONS)[number];

/** The person service's operations. */
export type PersonOperation = Exclude<SharedOperation, (typeof NOT_PERSON)[number]> | PersonOnlyOperation;

/** Every operation of any service. */
export type OperationName = SharedOperation | PersonOnlyOperation;
