/**
 * The step names of the state-table rows (specs/state/state-rows.ts), as types: a walk step and a scripted check name
 * their row by one of them, so a misspelt or unknown row does not compile.
 *
 * Source: organization-identity-api.md, "States and transitions"; person-provider-identity-api.md, "States and
 * transitions".
 */

/**
 * Steps whose request names records by their source only: the row builds the request (RowSpec.content) from the sources
 * of its roles, so its wire member names live in the row.
 */
export type SourceStepName =
  | 'soft delete'
  | 'restore'
  | 'hard delete'
  | 'deactivate'
  | 'reactivate'
  | 'merge'
  | 'unmerge'
  | 'link'
  | 'unlink';

/**
 * Steps whose request carries identity data (a posted identity: new, the same record again, a copy of a deactivated
 * one): the data is the walk's (generated, or kept on the model's record), so the walk builds the request
 * (scenarios/shared/walk/commands.ts), not the row.
 */
export type DataStepName = 'post new identity' | 'update' | 'post copy of deactivated';

export type StepName = SourceStepName | DataStepName;
