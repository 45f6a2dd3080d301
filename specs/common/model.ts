/**
 * The shapes of the contract tables: services, operations and requirements. Every layer (client, reference router, JSON
 * Schema export, coverage) reads these tables.
 */
import type { z } from 'zod';
import type { OperationName } from './operation-names.js';
import type { SeedCitation } from './seed.js';
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
   * The seed sentences that forbid what the requirement's checks reject, quoted word for word (test/seeds.test.ts finds
   * each in the shipped seed document). A check's clause cites one of them (specs/common/clause.ts). Absent for an
   * EXPECT requirement: the seeds are silent, and its text says what any identity service does.
   */
  forbids?: SeedCitation[];
  /**
   * Reply members this requirement governs, as `<operation>:<pointer>` with `[]` for any array index (e.g.
   * `postIdentity:/content/events`): a contract violation at exactly that member cites it.
   */
  governs?: string[];
  /**
   * What shared rules know this requirement as (e.g. `search.threshold`, `lifecycle.softDeleteEffect`, `type.date`,
   * `op.postIdentity`): rules and walks shared by the services look a service's requirement up by role
   * (specs/services.ts requirementFor), so no scenario builds or maps requirement IDs itself. A role names at most one
   * requirement of a service.
   */
  roles?: string[];
}

/** Members of a deployment profile that operation rows may depend on (wire names not shown in the seeds). */
export interface WireNames {
  restoreSourceMember: string;
  deactivateSourceMember: string;
  reactivateSourceMember: string;
  /** Relationship subject and object members (they name link IDs). */
  relationshipSubjectMember: string;
  relationshipObjectMember: string;
}

/**
 * What an operation's example request (OperationSpec.example) may name: the check's own records, and the profile's
 * choices where the seeds leave members "not shown".
 */
export interface ExampleContext {
  /** Two posted source records of the check, and their link IDs. */
  a: SourceRef;
  b: SourceRef;
  linkA: string;
  linkB: string;
  /** postIdentity content for a source of the check that nobody posted (it must stay unstored). */
  post: Record<string, unknown>;
  /** The identity demographicsSearch and demographicsQuery send. */
  queryIdentity: Record<string, unknown>;
  /** A relationship the check added (deleteRelationshipService names it). */
  relationshipId?: string;
  names: WireNames;
  /** addRelationshipService content relating two link IDs, as the profile shapes a relationship. */
  relationship: (subject: string, object: string) => Record<string, unknown>;
  /** searchNotifications content: the profile's first page and page size over the last hour. */
  notificationPage: Record<string, unknown>;
  /** A data source name in the run's namespace; undefined where the profile lets the run create none. */
  newDataSource?: string;
}

/**
 * One row of an operations table.
 * - `path`: appended to the service path, e.g. `/postIdentity` or `/v2/postIdentity`.
 * - `mutates`: true when the operation changes state; the client's guard inspects these.
 * - `request` / `reply`: zod schemas of the request `content` and of the reply `content`.
 * - `sourcesNamed(content, names)`: every source reference the request names, so the guard can refuse a mutating
 *   request that names a source the run does not own.
 */
/** One row of an operations table; `R` is its reply content schema (kept as a type for ReplyContent). */
export interface OperationSpec<R extends z.ZodType = z.ZodType> {
  service: ServiceName;
  name: OperationName;
  path: string;
  mutates: boolean;
  request: z.ZodType;
  reply: R;
  sourcesNamed: (content: Record<string, unknown>, names: WireNames) => Array<Partial<SourceRef> | undefined>;
  /** Requirement that the reply content has the documented shape (Endpoints table row). */
  shapeRequirement: string;
  /**
   * A valid request naming only the check's own records (the checks that send every operation start from it: envelope,
   * bad credentials, bad input); undefined where the profile rules the operation out (createDataSource without data
   * sources to create).
   */
  example: (ctx: ExampleContext) => Record<string, unknown> | undefined;
  /**
   * Names the request creates in the deployment outside any identity (person createDataSource); the guard refuses the
   * request unless every one lies in the run's namespace.
   */
  namesCreated?: (content: Record<string, unknown>) => unknown[];
  /** Sources the request may create (postIdentity): the ledger lists them before the request leaves. */
  sourcesCreated?: (content: Record<string, unknown>, names: WireNames) => Array<Partial<SourceRef> | undefined>;
  /**
   * True for a mutating operation that may be re-sent when its outcome is unknown (sending it twice equals sending it
   * once).
   */
  idempotent?: boolean;
  /** Link IDs of identities a mutating request changes or relates; the guard refuses any the run does not own. */
  linkIdsNamed?: (content: Record<string, unknown>, names: WireNames) => unknown[];
  /** Relationship IDs a mutating request changes; the guard refuses any the run did not create. */
  relationshipsNamed?: (content: Record<string, unknown>) => unknown[];
  /** The ID of the relationship a successful reply says was created (the run then owns it). */
  relationshipCreated?: (replyContent: Record<string, any>) => unknown;
  /**
   * Sources a successful reply says are removed for good (hard delete): the ledger marks them removed, so the run's
   * removal at the end does not send their hard delete a second time.
   */
  sourcesRemoved?: (content: Record<string, unknown>, names: WireNames) => Array<Partial<SourceRef> | undefined>;
  /** Relationship IDs a successful reply says are deleted: the ledger marks them removed (as `sourcesRemoved`). */
  relationshipsRemoved?: (content: Record<string, unknown>) => unknown[];
  /**
   * Sources whose identity's link ID a successful reply's `linkId` reveals (nativeIdQuery names one, postIdentity the
   * posted one): when the run owns them, the run owns that link ID too.
   */
  revealsLinkIdOf?: (content: Record<string, unknown>, names: WireNames) => Array<Partial<SourceRef> | undefined>;
  /**
   * Link IDs a successful reply gives, beside `linkId`, as identities of the sources the request names (a merge's
   * surviving identity, the identities an unmerge or unlink leaves, a restore's new one, a post's events naming the
   * posted source): when the run owns every source named, it owns these too.
   */
  linkIdsGiven?: (content: Record<string, unknown>, replyContent: Record<string, any>) => unknown[];
}

/** An operations-table row as written: its service, name and shape requirement follow from where it stands. */
export type OperationRow = Omit<OperationSpec, 'service' | 'shapeRequirement' | 'name'>;

/** The rows `names` of a table in that order, with service, name and shape requirement `<idPrefix>-OP-<NAME>`. */
export const operationsOf = <K extends OperationName>(
  service: ServiceName,
  idPrefix: string,
  table: Record<K, OperationRow>,
  names: readonly K[],
): OperationSpec[] =>
  names.map((name) => ({ service, shapeRequirement: `${idPrefix}-OP-${name.toUpperCase()}`, name, ...table[name] }));

export const noSources = () => [];
/** Reads the named members of `content` as source references. */
export const sourcesAt =
  (...members: string[]) =>
  (content: Record<string, unknown>) =>
    members.map((m) => content?.[m] as Partial<SourceRef> | undefined);
