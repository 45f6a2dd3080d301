/**
 * The person service's scenario kit: its check registrar per area, its steps (shared steps on the person generator) and
 * the request contents of its person-only operations.
 * Source: person-provider-identity-api.md, Endpoints, "Person service".
 */
import { personIdentity } from '../../generators/person.js';
import type { Check } from '../../harness/check.js';
import { scenario } from '../../harness/register.js';
import { steps } from '../shared/steps.js';

export const person = steps(personIdentity);
export const area = (name: string) => scenario('person', name);
export const src = (s: { name: string; id: string }) => ({ name: s.name, id: s.id });
export const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** Deactivate / reactivate request contents, with the member names the profile gives. */
export const deactivate = (t: Check, s: { name: string; id: string }) => ({
  [t.profile.members.deactivateSource]: src(s),
});
export const reactivate = (t: Check, s: { name: string; id: string }) => ({
  [t.profile.members.reactivateSource]: src(s),
});

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
