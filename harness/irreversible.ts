/**
 * The checks a configured deployment cannot run safely: what they do cannot be undone on shared data. Each kind is
 * off against a configured deployment unless its profile member turns it on; a check of it is then omitted with the
 * kind's note (harness/register.ts), and the certification profile lists it with why instead of failing on it
 * (report/evidence/certification.ts). Against the embedded reference they run: it keeps nothing after the run.
 */

export interface IrreversibleKind {
  /** The profile member that turns the checks on (docs/deployment-profile.md). */
  member: string;
  /** The omission note of each such check (summary.json `checks[].note`). */
  note: string;
  /** Why a configured deployment cannot run them safely, with the seed sentence it rests on. */
  why: string;
}

export const IRREVERSIBLE: Record<'dataSources', IrreversibleKind> = {
  dataSources: {
    member: 'createDataSources',
    note: 'profile createDataSources is off for this target',
    why:
      'they create person data sources: the person service has no operation that deletes one ' +
      '(person-provider-identity-api.md, Endpoints, Person service), and a new one "can take 10 to 15 minutes to ' +
      'become available" (Limits), so on shared data each would stay for good',
  },
};

/** The kind of irreversible check an omission note names, if any. */
export const irreversibleKindOf = (note: string | undefined): IrreversibleKind | undefined =>
  Object.values(IRREVERSIBLE).find((k) => k.note === note);
