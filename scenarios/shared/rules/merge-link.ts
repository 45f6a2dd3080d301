/**
 * Merge, unmerge, link and unlink rows shared by the three state tables. Each check is a short script
 * (scenarios/shared/script.ts), one per row that its reply check and effect check share
 * (scenarios/shared/shared-script.ts), judged, at the step it is about, on its own requirement by the executable state
 * table and the whole-state oracle: the reply members the row names, or everything observable afterwards (lookups and
 * identityIdQuery of every link ID so far, each identity's data, searches with the records' data).
 * Source: organization-identity-api.md, States and transitions; person-provider-identity-api.md, States and
 * transitions.
 */
import type { Check } from '../../../harness/check.js';
import { script } from '../script.js';
import { type Scripted, registerShared, rowChecks } from './types.js';

/** Two new identities (of the check's kind), observed. */
async function two(t: Check, { walks, kind }: Scripted) {
  const s = script(t, walks);
  const [a, b] = await s.start(2, kind);
  return { s, a: a!, b: b! };
}

const MERGE = rowChecks<Scripted>(
  'merge',
  [
    [
      'mergeLink.mergeReply',
      'mergeidentities-replies-with-the-survivor-s-linkid',
      "mergeIdentities replies with the survivor's linkId",
    ],
    [
      'mergeLink.mergeEffect',
      'after-mergeidentities-a-single-surviving-identity-results-and-no-search-or-query-names-the-retired-one',
      'after mergeIdentities a single surviving identity results, and no search or query names the retired one',
    ],
  ],
  async (t, judge, setup) => {
    const { s, a, b } = await two(t, setup);
    await s.searchable(a, b);
    await s.step('merge', [a, b], judge);
  },
);

const UNMERGE = rowChecks<Scripted>(
  'unmerge',
  [
    [
      'mergeLink.unmergeReply',
      'unmergeidentities-replies-with-unmergedid-and-unmergedfromid',
      'unmergeIdentities replies with unmergedId and unmergedFromId',
    ],
    [
      'mergeLink.unmergeEffect',
      'after-unmergeidentities-the-source-is-active-in-a-new-separate-identity-with-its-data',
      'after unmergeIdentities the source is active in a new, separate identity, with its data',
    ],
  ],
  async (t, judge, setup) => {
    const { s, a, b } = await two(t, setup);
    await s.step('merge', [a, b]);
    await s.step('unmerge', [a, b], judge);
  },
);

const LINK = rowChecks<Scripted>(
  'link',
  [
    [
      'mergeLink.linkReply',
      'linkidentities-replies-with-the-linkid-of-linktosource-s-identity',
      "linkIdentities replies with the linkId of linkToSource's identity",
    ],
    [
      'mergeLink.linkEffect',
      'after-linkidentities-both-sources-are-active-in-one-identity-with-their-data',
      'after linkIdentities both sources are active in one identity, with their data',
    ],
  ],
  async (t, judge, setup) => {
    const { s, a, b } = await two(t, setup);
    await s.step('link', [a, b], judge);
  },
);

const UNLINK = rowChecks<Scripted>(
  'unlink',
  [
    [
      'mergeLink.unlinkReply',
      'unlinkidentities-replies-with-unlinkedid-and-unlinkedfromid',
      'unlinkIdentities replies with unlinkedId and unlinkedFromId',
    ],
    [
      'mergeLink.unlinkEffect',
      'after-unlinkidentities-the-source-is-active-in-a-separate-identity-and-no-search-names-a-link-id-out-of-use',
      'after unlinkIdentities the source is active in a separate identity, and no search names a link ID out of use',
    ],
  ],
  async (t, judge, setup) => {
    const { s, a, b } = await two(t, setup);
    await s.step('link', [a, b]);
    await s.searchable(b);
    await s.step('unlink', [a, b], judge);
  },
);

/** The merge, unmerge, link and unlink checks a service's catalogue gives requirements. */
export const mergeLinkChecks = (s: Scripted) => registerShared(s, [...MERGE, ...UNMERGE, ...LINK, ...UNLINK]);
