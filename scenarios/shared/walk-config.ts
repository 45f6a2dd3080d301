/**
 * A service's walk configuration: how its walks build identities, its executable state table and the requirements
 * outside it. It lives below both the walk engine (scenarios/shared/walk/) and the table-driven rules
 * (scenarios/shared/rules/), which name it without importing each other.
 */
import type { Faker } from '@faker-js/faker';
import type { Profile } from '../../harness/profile.js';
import type { ServiceName } from '../../specs/common/model.js';
import type { SourceRef } from '../../specs/common/wire.js';
import type { StateSpec } from '../../specs/state/state-spec.js';
import { sameKindRequirements } from '../../specs/state/state-cites.js';
import { SERVICES, requirementFor } from '../../specs/services.js';

/**
 * What a service's walks need to know: how to build identities, the executable state table, and the requirements
 * outside it.
 */
export interface WalkConfig {
  service: ServiceName;
  /**
   * A new identity, far apart from every other one the walk posts, on `source`, of `kind` where the service has kinds,
   * as `profile` writes it.
   */
  generate: (f: Faker, source: SourceRef, kind: string | undefined, profile: Profile) => Record<string, unknown>;
  /** The service's state table as an executable specification (specs/<service>/state-spec.ts). */
  spec: StateSpec;
  requirements: {
    /** Identities generated far apart are not joined by matching (EXPECT). */
    apart: string;
    /** A rejected step leaves every record as it was (EXPECT). */
    rejectedNoChange: string;
    /** A reply is never an HTTP 5xx. */
    noServerError: string;
  };
}

/**
 * A service's walk configuration parts read from the specs: its state table, and the requirements outside it by their
 * roles (`walk.apart`, `walk.rejectedNoChange`, `walk.noServerError` in specs/<service>/requirements.ts).
 * @throws Error when a role has no requirement
 */
export function walkSpecOf(service: ServiceName): Pick<WalkConfig, 'spec' | 'requirements'> {
  const need = (name: string) => {
    const id = requirementFor(service, `walk.${name}`);
    if (!id) throw new Error(`${service}: no requirement has the role walk.${name}`);
    return id;
  };
  return {
    spec: SERVICES[service].stateSpec,
    requirements: {
      apart: need('apart'),
      rejectedNoChange: need('rejectedNoChange'),
      noServerError: need('noServerError'),
    },
  };
}

/**
 * Every requirement a walk of this configuration may cite: the state table's, its queries' and feed's, and the walk's
 * own.
 */
export function walkRequirementIds(c: WalkConfig): string[] {
  const { spec } = c;
  const fromRows = spec.rows.flatMap((row) => [
    row.effectRequirement,
    row.replyRequirement,
    row.feed?.requirement,
    ...row.effects.map((e) => e.requirement),
    ...row.reply.map((r) => r.requirement),
  ]);
  const q = spec.queries;
  const households = q.households ? [q.households.byLinkId, q.households.bySource, q.households.byId] : [];
  const sameKind = sameKindRequirements(spec);
  return [
    ...new Set(
      [
        ...fromRows,
        ...sameKind,
        q.nativeId.requirement,
        q.idQueryReturns.requirement,
        q.idQueryEcho?.requirement,
        q.excludedFromMatching?.requirement,
        q.deletedIdentityGone?.requirement,
        q.singleIdentity?.requirement,
        ...households,
        spec.feed.partition?.requirement,
        c.requirements.apart,
        c.requirements.rejectedNoChange,
      ].filter((x): x is string => Boolean(x)),
    ),
  ];
}
