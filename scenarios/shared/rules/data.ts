/**
 * A hard delete takes the source's information out of matching too: after deleteSourceIdentity of
 * one of two linked sources, a search with the deleted source's data no longer finds the
 * surviving identity by it (its score falls, or it drops out). The data that leaves the identity,
 * and the data restore, unmerge and link bring in, are judged by the state table's effects
 * (specs/<service>/state-spec.ts) in the lifecycle and merge-link checks.
 * Source: organization-identity-api.md, States and transitions (deleteSourceIdentity: "all
 * information of the source is removed"); person-provider-identity-api.md, States and transitions
 * (person: "physical deletion"; provider: "removes all information and history of the source").
 */
import { expect } from 'vitest';
import type { Reply } from '../../../harness/reply.js';
import { script } from '../script.js';
import { type Scripted, idsFor, titled } from './types.js';

export const DATA_ROLES = ['hardDeleteData'] as const;
export type DataRole = (typeof DATA_ROLES)[number];

export function dataChecks({ check, verifies, walks, kind, label }: Scripted): void {
  const ids = idsFor(check, 'data', DATA_ROLES, verifies);
  const T = (s: string) => titled(s, label);

  if (ids.hardDeleteData) {
    const id = ids.hardDeleteData;
    check(
      T('after deleteSourceIdentity of one of two linked sources its data leaves the survivor and no search finds the survivor by it'),
      [id],
      async (t) => {
        const s = script(t, walks);
        const [a, b] = await s.start(2, kind);
        await s.step('link', [a!, b!]);
        const survivor = s.linkOf(a!)!;
        await s.searchable(b!);
        // The survivor's score for the deleted source's data, before and after: it must fall (or the survivor drop out).
        const scoreOf = (r: Reply<'demographicsSearch'>) =>
          (r.content?.searchResults ?? []).find((x) => x?.linkId === survivor)?.matchScore;
        const before = scoreOf(await t.call('demographicsSearch', { identity: b!.identity }));
        await s.step('hard delete', [b!], [id]);
        if (typeof before !== 'number')
          return t.skip("no search with the linked source's data scored the survivor, so no score could fall");
        const dropped = (r: Reply<'demographicsSearch'>) => {
          const now = scoreOf(r);
          return typeof now !== 'number' || now < before;
        };
        const search = await t.settle(
          "a search with the deleted source's data no longer finds the survivor by it",
          () => t.call('demographicsSearch', { identity: b!.identity }),
          dropped,
        );
        await t.rule(id, () =>
          expect(
            dropped(search),
            `a search with the deleted source's data still finds the survivor ${survivor} at score ${scoreOf(search)} (${before} before the delete)`,
          ).toBe(true),
        );
      },
    );
  }
}
