/**
 * A hard delete takes the source's information out of matching too: after deleteSourceIdentity of one of two linked
 * sources, a search with the deleted source's data no longer scores the surviving identity as high as while the source
 * was in it (its score falls, or it drops out), where the source's data had raised that score (how scores are computed
 * is not shown: a deployment may score an identity by one of its records only). The data that leaves the identity, and
 * the data restore, unmerge and link bring in, are judged by the state table's effects (specs/<service>/state-spec.ts)
 * in the lifecycle and merge-link checks.
 * Source: organization-identity-api.md, States and transitions (deleteSourceIdentity: "all information of the source is
 * removed"); person-provider-identity-api.md, States and transitions (person: "physical deletion"; provider: "removes
 * all information and history of the source").
 */
import type { Reply } from '../../../harness/reply.js';
import { DELETED_DATA_STILL_SCORES, deletedDataStillScores } from '../../../specs/clauses/matching.js';
import { script } from '../script.js';
import { type Scripted, type SharedCheck, registerShared } from './types.js';

const HARD_DELETE_DATA: SharedCheck<Scripted> = {
  id: 'after-deletesourceidentity-of-one-of-two-linked-sources-its-data-leaves-the-survivor-and-no-search-finds-the-survivor-by-it',
  role: 'data.hardDeleteData',
  title:
    'after deleteSourceIdentity of one of two linked sources its data leaves the survivor and no search finds the ' +
    'survivor by it',
  body: async (t, { s: { walks, kind }, id }) => {
    const s = script(t, walks);
    const [a, b] = await s.start(2, kind);
    const scoreOf = (r: Reply<'demographicsSearch'>, link: string | undefined) => {
      const x = (r.content?.searchResults ?? []).find((y) => y?.linkId === link)?.matchScore;
      return typeof x === 'number' ? x : undefined;
    };
    const searchB = () => t.call('demographicsSearch', { identity: b!.identity, matchScoreThreshold: 0 });
    // A's identity's score for B's data before the link: what it scores without B's data in it.
    await s.searchable(a!, b!);
    const apart = scoreOf(await searchB(), s.linkOf(a!));
    await s.step('link', [a!, b!]);
    const survivor = s.linkOf(a!)!;
    await s.searchable(b!);
    const during = scoreOf(await searchB(), survivor);
    await s.step('hard delete', [b!], [id]);
    if (during === undefined)
      return t.skip("no search with the linked source's data scored the survivor, so no score could fall");
    if (apart !== undefined && during <= apart)
      return t.skip(
        `the linked source's data did not raise the survivor's score for it (${apart} before the link, ` +
          `${during} after), so its removal cannot show in a search`,
      );
    const search = await t.settle(
      "a search with the deleted source's data no longer scores the survivor as high",
      searchB,
      (r) => !deletedDataStillScores(scoreOf(r, survivor), during, apart).length,
    );
    t.judge(DELETED_DATA_STILL_SCORES, id, deletedDataStillScores(scoreOf(search, survivor), during, apart), search);
  },
};

/** The data checks a service's catalogue gives requirements. */
export const dataChecks = (s: Scripted) => registerShared(s, [HARD_DELETE_DATA]);
