/**
 * The request of each operation that names records by their source only, in wire member names (the profile's where the
 * seeds do not show the member), written once: the state-table rows send it (RowSpec.content,
 * specs/state/state-rows.ts; the walks, the scripted checks and the prior states of valid requests), and so does the
 * operations table's example request of the operation (OperationSpec.example: the checks that send every operation
 * once).
 *
 * Source: organization-identity-api.md, Endpoints and "States and transitions"; person-provider-identity-api.md,
 * Endpoints and "States and transitions".
 */
import type { WireNames } from './model.js';
import type { SourceRef } from './wire.js';

/**
 * The wire member names the seeds do not show, as the deployment profile gives them (harness/profile.ts `members`): `{
 * restoreSource, deactivateSource, reactivateSource }`.
 */
export interface NotShownMembers {
  restoreSource: string;
  deactivateSource: string;
  reactivateSource: string;
}

/** Builds an operation's request from the sources it names, in the order of the state-table row's roles. */
export type SourceRequest = (sources: SourceRef[], members: NotShownMembers) => Record<string, unknown>;

export const SOURCE_REQUESTS = {
  softDeleteSource: ([source]) => ({ sourceToSoftDelete: source }),
  // The member is not shown in the seed: the profile names it.
  restoreSource: ([source], members) => ({ [members.restoreSource]: source }),
  deleteSourceIdentity: ([source]) => ({ source }),
  mergeIdentities: ([survivor, retired]) => ({ toSurviveSource: survivor, toRetireSource: retired }),
  unmergeIdentities: ([from, unmerged]) => ({ unmergeFromSource: from, unmergeSource: unmerged }),
  linkIdentities: ([into, moved]) => ({ linkToSource: into, source: moved }),
  unlinkIdentities: ([from, moved]) => ({ unlinkFromSource: from, source: moved }),
  // The member is not shown in the seed: the profile names it (vendor OpenAPI).
  deactivateSourceWs: ([source], members) => ({ [members.deactivateSource]: source }),
  reactivateSourceWs: ([source], members) => ({ [members.reactivateSource]: source }),
} satisfies Record<string, SourceRequest>;

export type SourceOperation = keyof typeof SOURCE_REQUESTS;

/** The not-shown members as the operations table's example context names them. */
export const membersOf = (names: WireNames): NotShownMembers => ({
  restoreSource: names.restoreSourceMember,
  deactivateSource: names.deactivateSourceMember,
  reactivateSource: names.reactivateSourceMember,
});

/** The example request of an operation: on the check's records `a` (first role) and `b` (second). */
export const sourceExample =
  (operation: SourceOperation) =>
  (c: { a: SourceRef; b: SourceRef; names: WireNames }): Record<string, unknown> =>
    SOURCE_REQUESTS[operation]([c.a, c.b], membersOf(c.names));
