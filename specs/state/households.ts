/**
 * The whole-state oracle's household clauses (person): householdQuery by link ID, by source and by household ID of a
 * step's active record, against one another.
 *
 * Source: person-provider-identity-api.md, Endpoints (/householdQuery: "returns the link IDs in a household, looked up
 * by link ID, by source plus native ID, or by household ID").
 */
import { type Answer, said } from '../common/answer.js';
import { type Clause, type Finding, clause, finding } from '../common/clause.js';
import { type Judging, type OracleJudge, list } from './observation.js';
import type { StateSpec } from './state-spec.js';

/** The household a householdQuery reply names, or undefined when it names none (a rejection, or no householdId). */
export const householdOf = (r: Answer): string | undefined =>
  r.success === true && typeof r.content?.householdId === 'string' ? r.content.householdId : undefined;

export const HOUSEHOLD_WITHOUT_LINK = clause(
  'HOUSEHOLD-WITHOUT-LINK',
  'householdQuery by a link ID, or by a source, answering a household that does not list that link ID (or the ' +
    'link ID of the source)',
  ['state:queries.households'],
);
export const HOUSEHOLD_FORMS_DISAGREE = clause(
  'HOUSEHOLD-FORMS-DISAGREE',
  'householdQuery by link ID and by source plus native ID of one record finding different households, or one ' +
    'finding a household and the other none',
  ['state:queries.households'],
);
export const HOUSEHOLD_BY_ID_DIFFERS = clause(
  'HOUSEHOLD-BY-ID-DIFFERS',
  'householdQuery by a household ID another form found not returning that household, or listing other link IDs',
  ['state:queries.households'],
);

/**
 * The three lookup forms of householdQuery for one record, against one another: by link ID the household holding that
 * link ID, by source the household of the record's identity, by household ID that household with the same link IDs. A
 * household one form finds and another does not breaks the form that missed it. `byId` gives the reply for a household
 * ID (undefined: not asked). Households forming at all is not stated.
 * Source: person-provider-identity-api.md, Endpoints (/householdQuery: "returns the link IDs in a household, looked up
 * by link ID, by source plus native ID, or by household ID").
 */
export function householdForms(
  h: NonNullable<StateSpec['queries']['households']>,
  label: string,
  link: string,
  bySource: Answer,
  byLink: Answer,
  byId: (householdId: string) => Answer | undefined,
): Finding[] {
  const out: Finding[] = [];
  const say = (c: Clause, requirement: string, observed: string) =>
    out.push(finding(c, { requirement, forbids: h.seed }, observed));
  const [hs, hl] = [householdOf(bySource), householdOf(byLink)];
  if (hl && !list(byLink.content?.linkIdsInHousehold).includes(link))
    say(
      HOUSEHOLD_WITHOUT_LINK,
      h.byLinkId,
      `householdQuery by link ID ${link} answered household ${hl} without that link ID`,
    );
  if (hs && !list(bySource.content?.linkIdsInHousehold).includes(link))
    say(
      HOUSEHOLD_WITHOUT_LINK,
      h.bySource,
      `householdQuery by ${label}'s source answered household ${hs} without its link ID ${link}`,
    );
  if (hs && !hl)
    say(
      HOUSEHOLD_FORMS_DISAGREE,
      h.byLinkId,
      `householdQuery by link ID ${link} finds no household (${said(byLink)}), but by ${label}'s ` +
        `source it finds ${hs}`,
    );
  if (hl && !hs)
    say(
      HOUSEHOLD_FORMS_DISAGREE,
      h.bySource,
      `householdQuery by ${label}'s source finds no household (${said(bySource)}), but by its link ID ` +
        `${link} it finds ${hl}`,
    );
  if (hs && hl && hs !== hl)
    say(
      HOUSEHOLD_FORMS_DISAGREE,
      h.bySource,
      `householdQuery by ${label}'s source finds ${hs}, by its link ID ${link} ${hl}`,
    );
  const found = hl ?? hs;
  if (!found) return out;
  const reply = byId(found);
  if (!reply || householdOf(reply) !== found) {
    say(
      HOUSEHOLD_BY_ID_DIFFERS,
      h.byId,
      `householdQuery by household ID ${found} does not return that household: ` +
        `${reply ? said(reply) : 'not asked'}`,
    );
    return out;
  }
  const other = hl ? byLink : bySource;
  const [a, b] = [list(reply.content?.linkIdsInHousehold).sort(), list(other.content?.linkIdsInHousehold).sort()];
  if (JSON.stringify(a) !== JSON.stringify(b))
    say(
      HOUSEHOLD_BY_ID_DIFFERS,
      h.byId,
      `householdQuery by household ID ${found} lists ${JSON.stringify(a)}, by ` +
        `${hl ? `link ID ${link}` : `${label}'s source`} ${JSON.stringify(b)}`,
    );
  return out;
}

/** The household clauses, judged on the households the oracle read for a step's active record. */
export const HOUSEHOLDS = {
  clauses: [HOUSEHOLD_WITHOUT_LINK, HOUSEHOLD_FORMS_DISAGREE, HOUSEHOLD_BY_ID_DIFFERS],
  judge(j: Judging): Finding[] {
    const h = j.spec.queries.households;
    if (!h) return [];
    return [...j.obs.householdsBySource].flatMap(([label, bySource]) => {
      const link = j.obs.linkOf.get(label);
      const byLink = link ? j.obs.householdsByLink.get(link) : undefined;
      return link && byLink
        ? householdForms(h, label, link, bySource, byLink, (id) => j.obs.householdsById.get(id))
        : [];
    });
  },
} satisfies OracleJudge;
