/**
 * The person service's scenario kit: its check registrar per area, its steps (shared steps on
 * the person generator) and its exercises (the shared ones, minus soft delete / restore, plus the
 * person-only operations and the person relationship search).
 * Source: person-provider-identity-api.md, Endpoints, "Person service".
 */
import { personIdentity } from '../../generators/person.js';
import type { Check } from '../../harness/check.js';
import { scenario } from '../../harness/register.js';
import type { PersonOperation } from '../../specs/common/operation-names.js';
import { type Exercise, relationshipContent, sharedExercises } from '../shared/exercise.js';
import { steps } from '../shared/steps.js';

export const person = steps(personIdentity);
export const area = (name: string) => scenario('person', name);
export const src = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });
export const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** Deactivate / reactivate request contents, with the member names the profile gives. */
export const deactivate = (t: Check, s: { name: string; id: string }) => ({ [t.profile.members.deactivateSource]: src(s) });
export const reactivate = (t: Check, s: { name: string; id: string }) => ({ [t.profile.members.reactivateSource]: src(s) });

/** A data-source name in the run's namespace (the only names the guard lets the run create). */
export const dataSourceName = (t: Check, i: number) =>
  `${t.run.namespace}ds-${t.faker.string.alphanumeric({ length: 6, casing: 'lower' })}-${i}`;

/** searchRelationshipsService content with the vendor's filter members (subject, object, verb). */
export const relationshipFilter = (filter: { subject?: string; object?: string; verb?: string }) => ({
  relationshipFilter: {
    ...(filter.subject ? { filterBySubjectVeratoId: filter.subject } : {}),
    ...(filter.object ? { filterByObjectVeratoId: filter.object } : {}),
    ...(filter.verb ? { filterByRelationshipVerb: filter.verb } : {}),
  },
});

/** Relationships a search reply lists (`relationships[]`; a deployment answering `relationship` is read too). */
export const relationshipsIn = (content: any): Array<Record<string, unknown>> => {
  const r = content?.relationships ?? content?.relationship;
  return Array.isArray(r) ? r : r ? [r] : [];
};

const { softDeleteSource: _soft, restoreSource: _restore, ...shared } = sharedExercises(person);

/** A valid request per person operation (setting up run-owned state first where needed; a missing one is a compile error). */
export const personExercises: Record<PersonOperation, Exercise> = {
  ...shared,
  deactivateSourceWs: async (t, cites) => deactivate(t, (await person.postNew(t, cites)).source),
  reactivateSourceWs: async (t, cites) => {
    const a = await person.postNew(t, cites);
    await t.ok('deactivateSourceWs', deactivate(t, a.source), { cites });
    return reactivate(t, a.source);
  },
  householdQuery: async (t, cites) => ({ linkId: (await person.postNew(t, cites)).linkId }),
  createDataSource: async (t) => ({ sources: [dataSourceName(t, 0)] }),
  searchRelationshipsService: async (t, cites) => relationshipFilter({ subject: (await person.postNew(t, cites)).linkId }),
  addRelationshipService: async (t, cites) => {
    const [a, b] = await Promise.all([person.postNew(t, cites), person.postNew(t, cites)]);
    return relationshipContent(t, a.linkId, b.linkId);
  },
};
