/**
 * The request of each state-table step that names its records by source only, in wire member names (the profile's where
 * the seeds do not show the member), written once: the rows send it (RowSpec.content, specs/state/state-rows.ts; the
 * walks, the scripted checks and the prior states of valid requests), and so does the operations table's example
 * request of the step's operation (OperationSpec.example: the checks that send every operation once). Sources:
 * organization-identity-api.md, Endpoints and "States and transitions"; person-provider-identity-api.md, Endpoints and
 * "States and transitions".
 */
import type { WireNames } from '../common/model.js';
import type { SourceRef } from '../common/wire.js';
import type { NotShownMembers, SourceStepName } from './step-names.js';

/** Builds a step's request from the sources of its roles, in the order of the row's roles. */
export type StepRequest = (sources: SourceRef[], members: NotShownMembers) => Record<string, unknown>;

export const STEP_REQUESTS: Record<SourceStepName, StepRequest> = {
  'soft delete': ([source]) => ({ sourceToSoftDelete: source }),
  // The member is not shown in the seed: the profile names it.
  restore: ([source], members) => ({ [members.restoreSource]: source }),
  'hard delete': ([source]) => ({ source }),
  merge: ([survivor, retired]) => ({ toSurviveSource: survivor, toRetireSource: retired }),
  unmerge: ([from, unmerged]) => ({ unmergeFromSource: from, unmergeSource: unmerged }),
  link: ([into, moved]) => ({ linkToSource: into, source: moved }),
  unlink: ([from, moved]) => ({ unlinkFromSource: from, source: moved }),
  // The member is not shown in the seed: the profile names it (vendor OpenAPI).
  deactivate: ([source], members) => ({ [members.deactivateSource]: source }),
  reactivate: ([source], members) => ({ [members.reactivateSource]: source }),
};

/** The not-shown members as the operations table's example context names them. */
export const membersOf = (names: WireNames): NotShownMembers => ({
  restoreSource: names.restoreSourceMember,
  deactivateSource: names.deactivateSourceMember,
  reactivateSource: names.reactivateSourceMember,
});

/** The example request of a step's operation: the step on the check's records `a` (first role) and `b` (second). */
export const stepExample =
  (step: SourceStepName) =>
  (c: { a: SourceRef; b: SourceRef; names: WireNames }): Record<string, unknown> =>
    STEP_REQUESTS[step]([c.a, c.b], membersOf(c.names));
