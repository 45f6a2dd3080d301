/**
 * The shape of a service's state table (the seeds' "States and transitions" sections): the states a source record moves
 * through and, per operation, the transition it makes. Reports draw it as a state diagram (report/state-diagram.ts).
 */
import type { Requirement, ServiceName } from '../common/model.js';

export interface Transition {
  operation: string;
  /** The states the seed's "From" column names; `any` is every state but the target. */
  from: string[] | 'any';
  to: string;
  /** The seed's own words on the row (condition, what else happens), shortened. */
  note?: string;
}

export interface StateTable {
  service: ServiceName;
  /** Seed document and section the table comes from. */
  source: string;
  states: string[];
  transitions: Transition[];
}

/** The transition's edges as [from, to] pairs (`any` spelled out). */
export function edgesOf(table: StateTable, t: Transition): Array<[string, string]> {
  const from = t.from === 'any' ? table.states.filter((s) => s !== t.to) : t.from;
  return from.map((f) => [f, t.to]);
}

/**
 * The requirements of one transition: the catalogue entries whose seed section is the state table's row of that
 * operation ("..., States and transitions[, provider], <operation>").
 */
export function transitionRequirements(requirements: Requirement[], operation: string): Requirement[] {
  return requirements.filter((r) => /States and transitions\b/.test(r.section) && r.section.endsWith(`, ${operation}`));
}
