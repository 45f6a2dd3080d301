/**
 * The data-safety guard: refuses, before anything is sent, any mutating request that names a source, link ID,
 * relationship or data-source name the run does not own. What a request names comes from the operations table's hooks
 * (specs/common/model.ts OperationSpec: sourcesNamed, linkIdsNamed, relationshipsNamed, namesCreated), so the guard
 * knows no operation by name.
 *
 * Ownership: a source is the run's when its name is a configured test source and its native ID lies in the run's
 * namespace; a link ID when a reply revealed it as the identity of a run-owned source (a query's or post's `linkId`,
 * or a link ID the reply to a request naming only run-owned sources gives for them: OperationSpec.linkIdsGiven); a
 * relationship when the run created it.
 */
import type { OperationSpec, WireNames } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';
import type { ServiceTarget } from './config.js';
import type { Adoption, AdoptionKind } from './ownership.js';
import { type Profile, relationshipMembers } from './profile.js';
import type { RunContext } from './run.js';

export class GuardRefusal extends Error {
  constructor(message: string) {
    super(`Guard refused the request: ${message}`);
    this.name = 'GuardRefusal';
  }
}

/** The wire member names the operations table's hooks need, from the profile. */
export function wireNames(profile: Profile, service: string): WireNames {
  const rel = relationshipMembers(profile, service);
  return {
    restoreSourceMember: profile.members.restoreSource,
    deactivateSourceMember: profile.members.deactivateSource,
    reactivateSourceMember: profile.members.reactivateSource,
    relationshipSubjectMember: rel.subject,
    relationshipObjectMember: rel.object,
  };
}

/** A moment of the guard's knowledge: what it had adopted by then (`Guard.now`). */
export type GuardMoment = number;

export class Guard {
  // Each maps what was adopted to the moment it was: ownership only grows, so what the guard owned at a moment is what
  // it had adopted by then (a reply redacted later is judged as of its arrival).
  private readonly ownedLinkIds = new Map<string, GuardMoment>();
  private readonly ownedRelationships = new Map<string, GuardMoment>();
  /** Data sources the run created (person createDataSource): records on them are the run's too. */
  private readonly createdSourceNames = new Map<string, GuardMoment>();
  private adoptions = 0;
  readonly names: WireNames;

  /**
   * @param recordAdoption called with each first adoption (the client writes the run's ownership
   *   record, harness/ownership.ts, so that the evidence bundle's scan knows what the run owned)
   */
  constructor(
    readonly target: ServiceTarget,
    profile: Profile,
    readonly run: RunContext,
    private readonly recordAdoption?: (a: Adoption) => void,
  ) {
    this.names = wireNames(profile, target.service);
  }

  /** This moment of the guard's knowledge; the `asOf` of the ownership questions below (default: now). */
  get now(): GuardMoment {
    return this.adoptions;
  }

  ownsSource(source: Partial<SourceRef> | undefined | null, asOf: GuardMoment = this.adoptions): boolean {
    const name = source?.name ?? '';
    return Boolean(
      source &&
        (this.target.sources.includes(name) ||
          (this.createdSourceNames.get(name) ?? Number.POSITIVE_INFINITY) <= asOf) &&
        this.run.ownsNativeId(source.id),
    );
  }

  /** Marks a data-source name as created by the run (teardown re-reads them from the ledger). */
  adoptSourceName(name: unknown): void {
    if (typeof name === 'string' && name.startsWith(this.run.namespace))
      this.adopt(this.createdSourceNames, name, 'dataSource');
  }

  ownsLinkId(linkId: unknown, asOf: GuardMoment = this.adoptions): boolean {
    return typeof linkId === 'string' && (this.ownedLinkIds.get(linkId) ?? Number.POSITIVE_INFINITY) <= asOf;
  }

  /** Marks a link ID as the identity of a run-owned source. */
  adoptLinkId(linkId: unknown): void {
    if (typeof linkId === 'string' && linkId) this.adopt(this.ownedLinkIds, linkId, 'linkId');
  }

  /** True when the run created the relationship. */
  ownsRelationship(id: unknown, asOf: GuardMoment = this.adoptions): boolean {
    return typeof id === 'string' && (this.ownedRelationships.get(id) ?? Number.POSITIVE_INFINITY) <= asOf;
  }

  /** Marks a relationship as created by the run (teardown re-reads them from the ledger). */
  adoptRelationship(id: unknown): void {
    if (typeof id === 'string' && id) this.adopt(this.ownedRelationships, id, 'relationship');
  }

  private adopt(owned: Map<string, GuardMoment>, key: string, kind: AdoptionKind): void {
    if (owned.has(key)) return;
    owned.set(key, ++this.adoptions);
    this.recordAdoption?.({ service: this.target.service, kind, id: key });
  }

  /**
   * @throws GuardRefusal when a mutating request names something the run does not own.
   * Source: docs/safety.md.
   */
  check(op: OperationSpec, content: Record<string, unknown>): void {
    if (!op.mutates) return;
    const c = content ?? {};
    for (const source of op.sourcesNamed(c, this.names)) {
      if (source === undefined || source === null) continue;
      if (!this.ownsSource(source))
        throw new GuardRefusal(
          `${op.service}.${op.name} names source ${JSON.stringify(source)}, which is not in this run's namespace ` +
            `(source name one of ${this.target.sources.join(', ')}, native ID starting ${this.run.namespace})`,
        );
    }
    for (const linkId of op.linkIdsNamed?.(c, this.names) ?? [])
      if (!this.ownsLinkId(String(linkId)))
        throw new GuardRefusal(
          `${op.service}.${op.name} names link ID ${JSON.stringify(linkId)}, which is not an identity this run created`,
        );
    for (const id of op.relationshipsNamed?.(c) ?? [])
      if (!this.ownsRelationship(String(id)))
        throw new GuardRefusal(
          `${op.service}.${op.name} names relationship ${JSON.stringify(id)}, which this run did not create`,
        );
    for (const name of op.namesCreated?.(c) ?? [])
      if (typeof name !== 'string' || !name.startsWith(this.run.namespace))
        throw new GuardRefusal(
          `${op.service}.${op.name} would create ${JSON.stringify(name)}, which is not in this run's namespace ` +
            `(names must start ${this.run.namespace})`,
        );
  }

  /** Learns what a successful reply says the run now owns (a created relationship, the link ID of an own source). */
  learn(op: OperationSpec, content: Record<string, unknown>, replyContent: Record<string, any>): void {
    for (const name of op.namesCreated?.(content ?? {}) ?? []) this.adoptSourceName(name);
    const created = op.relationshipCreated?.(replyContent);
    if (typeof created === 'string') this.adoptRelationship(created);
    if ((op.revealsLinkIdOf?.(content ?? {}, this.names) ?? []).some((s) => this.ownsSource(s)))
      this.adoptLinkId(replyContent?.linkId);
    // The other link IDs a reply gives for the sources named (a post's events, an unmerge's new identity, ...): the
    // run's when every source named is (a record the run posted that matched nothing: its reply's linkId is null).
    const named = op.sourcesNamed(content ?? {}, this.names).filter((s) => s !== undefined && s !== null);
    if (named.length && named.every((s) => this.ownsSource(s)))
      for (const linkId of op.linkIdsGiven?.(content ?? {}, replyContent ?? {}) ?? []) this.adoptLinkId(linkId);
  }
}
