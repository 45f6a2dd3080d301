/**
 * The shapes of the contract tables: services, operations and requirements.
 * Every layer (client, reference router, JSON Schema export, coverage) reads these tables.
 */
import type { z } from 'zod';
import type { SourceRef } from './wire.js';

export type ServiceName = 'organization' | 'person' | 'provider';
export type Level = 'MUST' | 'EXPECT';

/**
 * One requirement of the catalogue.
 * - `id`: stable, e.g. `ORG-SEARCH-THRESHOLD`; baselines and known-failure lists key on it.
 * - `level`: MUST where the seed states it; EXPECT where it is only what any identity service does.
 * - `section`: the seed document and section it comes from.
 * - `untestable`: set when no black-box check can observe it, with the reason.
 */
export interface Requirement {
  id: string;
  level: Level;
  service: ServiceName;
  section: string;
  text: string;
  untestable?: string;
  /**
   * Reply members this requirement governs, as `<operation>:<pointer>` with `[]` for any array
   * index (e.g. `postIdentity:/content/events`): a contract violation at exactly that member cites it.
   */
  governs?: string[];
}

/** Members of a deployment profile that operation rows may depend on (wire names not shown in the seeds). */
export interface WireNames {
  restoreSourceMember: string;
  deactivateSourceMember: string;
  reactivateSourceMember: string;
}

/**
 * One row of an operations table.
 * - `path`: appended to the service path, e.g. `/postIdentity` or `/v2/postIdentity`.
 * - `mutates`: true when the operation changes state; the client's guard inspects these.
 * - `request` / `reply`: zod schemas of the request `content` and of the reply `content`.
 * - `sourcesNamed(content, names)`: every source reference the request names, so the guard can
 *   refuse a mutating request that names a source the run does not own.
 */
export interface OperationSpec {
  service: ServiceName;
  name: string;
  path: string;
  mutates: boolean;
  request: z.ZodType;
  reply: z.ZodType;
  sourcesNamed: (content: Record<string, unknown>, names: WireNames) => Array<Partial<SourceRef> | undefined>;
  /** Requirement that the reply content has the documented shape (Endpoints table row). */
  shapeRequirement: string;
  /**
   * Names the request creates in the deployment outside any identity (person createDataSource);
   * the guard refuses the request unless every one lies in the run's namespace.
   */
  namesCreated?: (content: Record<string, unknown>) => unknown[];
}

export const noSources = () => [];
/** Reads the named members of `content` as source references. */
export const sourcesAt =
  (...members: string[]) =>
  (content: Record<string, unknown>) =>
    members.map((m) => content?.[m] as Partial<SourceRef> | undefined);
