/**
 * Attaching roles to a service's requirement catalogue (specs/common/model.ts Requirement.roles): the table maps each
 * role to the requirement that plays it in this service; every operation's shape requirement also gets the role
 * `op.<operation>`.
 */
import type { OperationSpec, Requirement } from './model.js';

/** @throws Error when the table names a requirement the catalogue lacks (a typo in the table). */
export function withRoles(
  requirements: Requirement[],
  table: Record<string, string>,
  operations: OperationSpec[],
): Requirement[] {
  const byId = new Map(requirements.map((r) => [r.id, { ...r, roles: [...(r.roles ?? [])] }]));
  const roles: Array<[string, string]> = [
    ...Object.entries(table),
    ...operations.map((op) => [`op.${op.name}`, op.shapeRequirement] as [string, string]),
  ];
  for (const [role, id] of roles) {
    const r = byId.get(id);
    if (!r) throw new Error(`role ${role}: no requirement ${id} in the catalogue`);
    r.roles.push(role);
  }
  return [...byId.values()];
}
