/** Shared types of the reference's operation handlers. */
import type { ServiceStore, SourceRecord } from '../store.js';

export interface Matcher {
  /** Match score of two identities in [0, 1]. */
  score(a: Record<string, unknown>, b: Record<string, unknown>): number;
  /** Score at or above which postIdentity links and demographicsQuery returns a match. */
  threshold: number;
  /** Score at or above which a search result is marked sameIdentity U (below: N). */
  uncertain: number;
  /** Lowest score a search considers a candidate at all when no threshold is given. */
  floor: number;
  /** Kind of identity (provider type); identities of different kinds never match, merge or link. */
  kind?(identity: Record<string, unknown>): string | undefined;
}

export interface HandlerContext {
  store: ServiceStore;
  content: Record<string, any>;
  envelope: Record<string, any>;
  matcher: Matcher;
  faults: ReadonlySet<string>;
  members: {
    restoreSource: string;
    deactivateSource: string;
    reactivateSource: string;
    relationshipSubject: string;
    relationshipObject: string;
  };
}

/**
 * Request member names the seeds do not show, as the reference reads them (the profile defaults of harness/profile.ts).
 */
export const DEFAULT_MEMBERS: HandlerContext['members'] = {
  restoreSource: 'sourceToRestore',
  deactivateSource: 'sourceToDeactivate',
  reactivateSource: 'sourceToReactivate',
  relationshipSubject: 'subjectServiceId',
  relationshipObject: 'objectServiceId',
};

export type Handler = (ctx: HandlerContext) => Record<string, unknown>;

/** A rejection: HTTP status plus the messages for the envelope's `errors`. */
export class Rejection extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** The source record the request member `member` names (a source reference `{ name, id }`), or undefined. */
export const recordNamed = (ctx: HandlerContext, member: string): SourceRecord | undefined =>
  ctx.store.get(ctx.content?.[member] as { name?: string; id?: string } | undefined);
