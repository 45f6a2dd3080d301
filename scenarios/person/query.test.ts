/**
 * demographicsQuery: the single best match, and a match only at the threshold postIdentity
 * matches with (checked without knowing the threshold: for variants of graded likeness, the
 * query finds the original exactly when posting the variant joins the original's link ID);
 * identityIdQuery returns the identity and gives the requested link ID back.
 * Source: person-provider-identity-api.md, Endpoints (/v2/demographicsQuery, /v2/identityIdQuery).
 */
import { postContent } from '../../generators/common.js';
import { QUERY_THRESHOLD_DIFFERS, queryThresholdDiffers } from '../../specs/clauses/query.js';
import { queryChecks } from '../shared/rules/query.js';
import { area, person } from './person.js';
import { personWalks } from './walk-config.js';

const { check } = area('query');

queryChecks({
  check,
  kit: person,
  walks: personWalks,
});

/** Variants of graded likeness to an original person: some above any sane threshold, some below. */
const VARIANTS: Array<{ what: string; change: (p: any) => void }> = [
  { what: 'an exact copy', change: () => {} },
  {
    what: 'a typo in the first name',
    change: (p) =>
      (p.names[0].firstName = `${p.names[0].firstName.slice(0, -2)}${p.names[0].firstName.slice(-1)}${p.names[0].firstName.slice(-2, -1)}`),
  },
  {
    what: 'day and month of birth swapped',
    change: (p) =>
      (p.datesOfBirth[0].dateOfBirth = p.datesOfBirth[0].dateOfBirth.replace(
        /^(\d{4})-(\d{2})-(\d{2})$/,
        (_: string, y: string, m: string, d: string) => (Number(d) <= 12 ? `${y}-${d}-${m}` : `${y}-${m}-${d}`),
      )),
  },
  {
    what: 'another birth date and SSN',
    change: (p) => Object.assign(p, { datesOfBirth: [{ dateOfBirth: '1901-01-01' }], ssns: [{ ssn: '999-00-0000' }] }),
  },
  {
    what: 'the name alone',
    change: (p) => Object.keys(p).forEach((k) => k !== 'names' && k !== 'sources' && delete p[k]),
  },
];

check(
  'demographicsQuery matches exactly when postIdentity would link (same threshold)',
  ['PERSON-QUERY-SAME-THRESHOLD'],
  async (t) => {
    const outcomes = await Promise.all(
      VARIANTS.map(async (v) => {
        const a = await person.postNew(t, ['PERSON-QUERY-SAME-THRESHOLD']);
        // Query and post once a search shows the original (both may read a lagging search index).
        await person.whenSearchable(t, a);
        const variant = structuredClone(a.identity) as any;
        delete variant.sources;
        v.change(variant);
        const query = await t.ok(
          'demographicsQuery',
          { identity: variant },
          { cites: ['PERSON-QUERY-SAME-THRESHOLD'] },
        );
        const copy = t.source(1);
        await t.ok('postIdentity', postContent(variant, copy, t.profile.sourcePlacement), {
          cites: ['PERSON-QUERY-SAME-THRESHOLD'],
        });
        const linked = (await person.resolved(t, copy)) === a.linkId;
        return { what: v.what, queried: query.content?.linkId === a.linkId, linked };
      }),
    );
    t.judge(QUERY_THRESHOLD_DIFFERS, 'PERSON-QUERY-SAME-THRESHOLD', queryThresholdDiffers(outcomes));
  },
);
