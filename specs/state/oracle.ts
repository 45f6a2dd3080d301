/**
 * The whole-state oracle's judgement of one observation (specs/state/observation.ts): the records the step left to the
 * deployment follow what it showed, then every clause of the oracle judges (specs/state/oracle-lookups.ts,
 * oracle-data.ts, households.ts). Pure: reading the deployment is the walk's (scenarios/shared/walk/oracle.ts).
 *
 * Source: organization-identity-api.md, "States and transitions", Endpoints (rule 3); person-provider-identity-api.md,
 * "States and transitions", Endpoints (/householdQuery).
 */
import { type Answer, said } from '../common/answer.js';
import { type Clause, type Finding, finding } from '../common/clause.js';
import { identityValues } from '../common/identity-content.js';
import { HOUSEHOLDS } from './households.js';
import type { IdentityModel, ModelRecord } from './identity-model.js';
import type { Judging, Observation, ObservePlan, OracleClause, OracleJudge } from './observation.js';
import {
  DEPARTED_DATA_SHOWN,
  EXCLUDED_RECORD_MATCHED,
  INACTIVE_RECORD_MATCHED,
  LINK_NOT_NEW,
  LINK_NOT_ORIGINAL,
  MERGED_DATA_MISSING,
  REMOVED_SOURCE_DATA_SHOWN,
  REMOVED_SOURCE_LISTED,
  RETURNED_DATA_MISSING,
  SOURCE_LISTED_WHERE_IT_LEFT,
} from './oracle-data.js';
import {
  DELETED_IDENTITY_PRESENTED,
  DELETED_SOURCE_FOUND,
  LINK_IN_USE_NOT_FOUND,
  LINK_IN_USE_OTHER_IDENTITY,
  LIVE_RECORD_NOT_FOUND,
  ONE_IDENTITY_SPLIT,
  REQUESTED_LINK_ECHO,
  RETIRED_RESOLVES_ELSEWHERE,
  SEPARATE_IDENTITIES_JOINED,
  SOFT_DELETED_SOURCE_FOUND,
} from './oracle-lookups.js';
import { type Follower, forgetAbsence } from './state-engine.js';
import { type StateSpec, isLive } from './state-spec.js';

/** Every judgement of the oracle, in the order a failure lists their findings. */
export const ORACLE_JUDGES: readonly OracleJudge[] = [
  LIVE_RECORD_NOT_FOUND,
  ONE_IDENTITY_SPLIT,
  SEPARATE_IDENTITIES_JOINED,
  DELETED_SOURCE_FOUND,
  SOFT_DELETED_SOURCE_FOUND,
  RETIRED_RESOLVES_ELSEWHERE,
  REQUESTED_LINK_ECHO,
  LINK_IN_USE_NOT_FOUND,
  LINK_IN_USE_OTHER_IDENTITY,
  DELETED_IDENTITY_PRESENTED,
  REMOVED_SOURCE_LISTED,
  REMOVED_SOURCE_DATA_SHOWN,
  SOURCE_LISTED_WHERE_IT_LEFT,
  DEPARTED_DATA_SHOWN,
  MERGED_DATA_MISSING,
  RETURNED_DATA_MISSING,
  EXCLUDED_RECORD_MATCHED,
  INACTIVE_RECORD_MATCHED,
  LINK_NOT_ORIGINAL,
  LINK_NOT_NEW,
  HOUSEHOLDS,
];

/** The oracle's own clauses (REQUESTED-NOT-ECHOED is the query checks', specs/clauses/query.ts), for the registry. */
export const ORACLE_CLAUSES: readonly Clause[] = ORACLE_JUDGES.flatMap((j) =>
  j === REQUESTED_LINK_ECHO ? [] : (j.clauses ?? [j as OracleClause]),
);

/** Judges an observation with every clause. */
export const judgeAll = (j: Judging): Finding[] => ORACLE_JUDGES.flatMap((c) => c.judge(j));

/**
 * Lets records follow what the deployment did (a step the seeds leave open, or a free choice within an allowed step):
 * each joins the model identity whose records resolve to the same link ID, or a new one. A record not found becomes
 * `unknown`, or a finding (LIVE-RECORD-NOT-FOUND) when it must stay live; a soft-deleted record found where the profile
 * says soft-deleted sources may still be found becomes `unknown` too.
 */
function adopt(
  m: IdentityModel,
  obs: Observation,
  followers: Follower[],
  softDeletedLookup: 'absent' | 'any',
  plan: ObservePlan,
): Finding[] {
  const out: Finding[] = [];
  const floating = new Set(followers.map((f) => f.label));
  const anchored = new Map<string, number>();
  for (const r of m.records) {
    const link = obs.linkOf.get(r.label);
    if (!floating.has(r.label) && isLive(r) && link) anchored.set(link, r.group);
  }
  // A link ID seen before keeps its model identity (so retired records still know where they went).
  const fresh = new Map<string, number>([...m.lastLinks].filter(([, l]) => !anchored.has(l)).map(([g, l]) => [l, g]));
  const retiredLast = [...followers].sort(
    (a, b) => Number(m.get(a.label)!.state === 'retired') - Number(m.get(b.label)!.state === 'retired'),
  );
  for (const f of retiredLast) {
    const r = m.get(f.label)!;
    const link = obs.linkOf.get(f.label);
    if (!link) {
      if (f.mustBeLive)
        out.push(
          finding(
            LIVE_RECORD_NOT_FOUND,
            plan.applied.cites.get(r.label) ?? plan.step,
            `${r.label} must still be active, but nativeIdQuery finds nothing: ${said(obs.lookups.get(r.label)!)}`,
          ),
        );
      else r.state = 'unknown';
      continue;
    }
    // Still retired, seen through its survivor.
    if (r.state === 'retired' && retiredLinks(m, r, new Map([...fresh, ...anchored])).includes(link)) continue;
    // Seen through another record's identity: merged into it or a member of it, not shown which.
    if (r.state === 'unknown' && anchored.has(link)) continue;
    // Where a soft-deleted source may still be found (profile softDeletedLookup=any), being found does not show that an
    // open step made it active again.
    if (r.state === 'soft-deleted' && softDeletedLookup === 'any') {
      r.state = 'unknown';
      continue;
    }
    if (!isLive(r)) {
      // Back from a state the seeds say nothing more about (an open step brought it back): its data shows again.
      r.state = 'active';
      r.data = { absentFrom: r.data.absentFrom };
    }
    r.retiredInto = undefined;
    const group = anchored.get(link) ?? fresh.get(link) ?? m.newGroup();
    fresh.set(link, group);
    r.group = group;
    forgetAbsence(r);
  }
  return out;
}

/** Link IDs a retired record may resolve to: its survivor's identity, now or at the merge. */
function retiredLinks(m: IdentityModel, r: ModelRecord, linkToGroup: Map<string, number>): string[] {
  const survivor = m.get(r.retiredInto ?? '');
  const groups = [survivor && isLive(survivor) ? survivor.group : undefined, r.mergedGroup];
  return [...linkToGroup].filter(([, g]) => groups.includes(g)).map(([l]) => l);
}

/**
 * Each model identity's link ID: the one its live records resolve to (the first found, when they disagree:
 * ONE-IDENTITY-SPLIT judges that).
 */
function linksOf(m: IdentityModel, obs: Observation): Map<number, string> {
  const links = new Map<number, string>();
  for (const [group, members] of m.groups()) {
    const link = members.map((r) => obs.linkOf.get(r.label)).find(Boolean);
    if (link) links.set(group, link);
  }
  return links;
}

/**
 * Records the values the deployment showed for records that stand alone and have none recorded yet (what their data
 * looks like), among the values the run posted for them: what a deployment adds to every identity on its own (a vendor
 * attribute, a data-quality mark) is not the record's data, and showing it after the record was removed shows nothing
 * of the record.
 */
function recordValues(m: IdentityModel, obsLookups: Map<string, Answer>): void {
  for (const r of m.records) {
    if (r.values || r.state !== 'active' || m.members(r.group).length !== 1) continue;
    const reply = obsLookups.get(r.label);
    const posted = identityValues({ identity: r.identity });
    if (reply?.success === true) r.values = [...identityValues(reply.content)].filter((v) => posted.has(v));
  }
}

/**
 * Judges one observation: records its values, lets the step's followers take the identities the deployment gave them,
 * then judges with every clause. Returns the findings and each model identity's link ID.
 */
export function judgeObservation(
  m: IdentityModel,
  obs: Observation,
  spec: StateSpec,
  plan: ObservePlan,
  softDeletedLookup: 'absent' | 'any',
): { findings: Finding[]; links: Map<number, string>; linkOf: Map<string, string | undefined> } {
  m.lastRead = { records: new Set(obs.lookups.keys()), links: new Set(obs.identities.keys()) };
  recordValues(m, obs.lookups);
  const findings = adopt(m, obs, plan.applied.follow, softDeletedLookup, plan);
  const links = linksOf(m, obs);
  findings.push(...judgeAll({ m, obs, spec, links, plan, softDeletedLookup }));
  return { findings, links, linkOf: obs.linkOf };
}
