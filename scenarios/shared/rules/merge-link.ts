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
import type { SharedBody } from '../shared-script.js';
import type { StepName } from '../../../specs/state/step-names.js';
import { type Scripted, idsFor, pairedChecks, titled } from './types.js';

export const MERGE_LINK_ROLES = [
  'mergeReply',
  'mergeEffect',
  'unmergeReply',
  'unmergeEffect',
  'linkReply',
  'linkEffect',
  'unlinkReply',
  'unlinkEffect',
] as const;
export type MergeLinkRole = (typeof MERGE_LINK_ROLES)[number];

export function mergeLinkChecks({ check, verifies, walks, kind, label }: Scripted): void {
  const ids = idsFor(check, 'mergeLink', MERGE_LINK_ROLES, verifies);
  const T = (s: string) => titled(s, label);
  /** Two new identities (of the check's kind), observed. */
  const two = async (t: Check) => {
    const s = script(t, walks);
    const [a, b] = await s.start(2, kind);
    return { s, a: a!, b: b! };
  };
  const pair = (
    step: StepName,
    reply: [string | undefined, string],
    effect: [string | undefined, string],
    body: SharedBody,
  ) => pairedChecks(check, T, kind, step, [reply, effect], body);

  pair(
    'merge',
    [ids.mergeReply, "mergeIdentities replies with the survivor's linkId"],
    [
      ids.mergeEffect,
      'after mergeIdentities a single surviving identity results, and no search or query names the retired one',
    ],
    async (t, judge) => {
      const { s, a, b } = await two(t);
      await s.searchable(a, b);
      await s.step('merge', [a, b], judge);
    },
  );

  pair(
    'unmerge',
    [ids.unmergeReply, 'unmergeIdentities replies with unmergedId and unmergedFromId'],
    [ids.unmergeEffect, 'after unmergeIdentities the source is active in a new, separate identity, with its data'],
    async (t, judge) => {
      const { s, a, b } = await two(t);
      await s.step('merge', [a, b]);
      await s.step('unmerge', [a, b], judge);
    },
  );

  pair(
    'link',
    [ids.linkReply, "linkIdentities replies with the linkId of linkToSource's identity"],
    [ids.linkEffect, 'after linkIdentities both sources are active in one identity, with their data'],
    async (t, judge) => {
      const { s, a, b } = await two(t);
      await s.step('link', [a, b], judge);
    },
  );

  pair(
    'unlink',
    [ids.unlinkReply, 'unlinkIdentities replies with unlinkedId and unlinkedFromId'],
    [
      ids.unlinkEffect,
      'after unlinkIdentities the source is active in a separate identity, and no search names a link ID out of use',
    ],
    async (t, judge) => {
      const { s, a, b } = await two(t);
      await s.step('link', [a, b]);
      await s.searchable(b);
      await s.step('unlink', [a, b], judge);
    },
  );
}
