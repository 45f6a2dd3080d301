/**
 * The identity model the walks and scripted checks judge a deployment against: the specification's model of source
 * records and their partition into identities (specs/state/state-spec.ts StateModel), with what a walk needs besides:
 * each record's source, its data and the values the deployment showed for it, and the link IDs seen so far.
 * Identities are model groups (numbers); the deployment's link IDs are matched
 * to them by observation, so link IDs may be renamed freely.
 *
 * Source: organization-identity-api.md, "States and transitions" (restated for person and provider in
 * person-provider-identity-api.md, "States and transitions").
 */
import type { Cite } from '../common/clause.js';
import { type SpecRecord, StateModel, isLive } from './state-spec.js';
import type { SourceRef } from '../common/wire.js';

export type { RecordState } from './state-spec.js';
export { isLive } from './state-spec.js';

export interface ModelRecord extends SpecRecord {
  source: SourceRef;
  identity: Record<string, unknown>;
  /**
   * Attribute values the deployment showed for the record while it stood alone (normalised; steps.ts identityValues).
   */
  values?: string[];
}

export class IdentityModel extends StateModel<ModelRecord> {
  /** Link ID of each model group at the last observation (to check replies that name the identity before a step). */
  lastLinks = new Map<number, string>();
  /** Every link ID observed so far, with the records it named (the sources of its identity while it was current). */
  readonly linkHistory = new Map<string, Set<string>>();
  /** The link ID each record resolved to at the last observation (undefined: none). */
  lastLinkOf = new Map<string, string | undefined>();
  /**
   * Link IDs of identities deleted as a whole (person: with their only source record), and what presenting them again
   * breaks.
   */
  readonly goneLinks = new Map<string, Cite>();
  /**
   * What the last observation read: the records looked up and the link IDs asked (the walk's full observation reads the
   * rest).
   */
  lastRead: { records: ReadonlySet<string>; links: ReadonlySet<string> } = { records: new Set(), links: new Set() };

  /** Every new identity of one kind (the first of the service's kinds): tours that need same-kind records. */
  singleKind = false;
  /** The kinds new identities take in turn, instead of the service's (a scripted check of one provider type). */
  kindsFor?: readonly string[];

  add(source: SourceRef, identity: Record<string, unknown>, kind?: string): ModelRecord {
    const label = labelFor(this.records.length);
    const r: ModelRecord = {
      label,
      source,
      identity,
      state: 'active',
      group: this.newGroup(),
      kind,
      data: {},
    };
    this.records.push(r);
    return r;
  }

  /** Records the link IDs of an observation: each current link ID names the live records of its identity. */
  remember(links: Map<number, string>, linkOf: Map<string, string | undefined> = new Map()): void {
    this.lastLinkOf = linkOf;
    for (const [group, link] of links) {
      const holders = this.linkHistory.get(link) ?? new Set<string>();
      for (const r of this.members(group)) holders.add(r.label);
      this.linkHistory.set(link, holders);
    }
    this.lastLinks = links;
  }

  /** The values of `r` no other record of the model showed (what tells its data apart in an identity). */
  ownValues(r: ModelRecord): string[] {
    const others = new Set(this.records.filter((x) => x !== r).flatMap((x) => x.values ?? []));
    return (r.values ?? []).filter((v) => !others.has(v));
  }

  /** One line per record: label, state, identity; for step listings. */
  describe(): string {
    return this.records
      .map((r) => `${r.label}:${r.state}${isLive(r) ? `@${r.group}` : r.retiredInto ? `->${r.retiredInto}` : ''}`)
      .join(' ');
  }
}

/** The label of the walk's record number `i`: A to Z, then R26, R27, ... */
export const labelFor = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `R${i}`);
