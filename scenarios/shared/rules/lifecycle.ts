/**
 * Source lifecycle rows shared by the organization and provider state tables: soft delete,
 * restore, hard delete. Each check is a short script (scenarios/shared/script.ts) judged, at the
 * step it is about, on its own requirement by the executable state table and the whole-state
 * oracle: the reply members the row names, or everything observable afterwards (lookups, the
 * identity's data, searches with the record's data, link IDs no longer in use).
 * Source: organization-identity-api.md, States and transitions;
 * person-provider-identity-api.md, States and transitions (provider rows).
 */
import { script } from '../script.js';
import { type Scripted, idsFor, titled } from './types.js';

export const LIFECYCLE_ROLES = [
  'softDeleteReply',
  'softDeleteEffect',
  'restoreReply',
  'restoreEffect',
  'hardDeleteReply',
  'hardDeleteEffect',
] as const;
export type LifecycleRole = (typeof LIFECYCLE_ROLES)[number];

export function lifecycleChecks({ check, verifies, walks, kind, label }: Scripted): void {
  const ids = idsFor(check, 'lifecycle', LIFECYCLE_ROLES, verifies);
  const T = (s: string) => titled(s, label);

  if (ids.softDeleteReply) {
    const id = ids.softDeleteReply;
    check(T('softDeleteSource lists the identity in linkIdsSoftDeleted or linkIdsModified'), [id], async (t) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.step('soft delete', [a!], [id]);
    });
  }

  if (ids.softDeleteEffect) {
    const id = ids.softDeleteEffect;
    check(T('after softDeleteSource the source resolves to no active identity and no search returns its identity'), [id], async (t) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.searchable(a!);
      await s.step('soft delete', [a!], [id]);
    });
  }

  if (ids.restoreReply) {
    const id = ids.restoreReply;
    check(T('restoreSource names the identity the source returned to'), [id], async (t) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.step('soft delete', [a!]);
      await s.step('restore', [a!], [id]);
    });
  }

  if (ids.restoreEffect) {
    const id = ids.restoreEffect;
    check(T('after restoreSource the source is active again and shows its data'), [id], async (t) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.step('soft delete', [a!]);
      await s.step('restore', [a!], [id]);
    });
  }

  if (ids.hardDeleteReply) {
    const id = ids.hardDeleteReply;
    check(T("deleteSourceIdentity of an identity's only source lists it in linkIdsDeleted"), [id], async (t) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.step('hard delete', [a!], [id]);
    });

    check(T('deleteSourceIdentity of one of two linked sources lists the identity in linkIdsModified'), [id], async (t) => {
      const s = script(t, walks);
      const [a, b] = await s.start(2, kind);
      await s.step('link', [a!, b!]);
      await s.step('hard delete', [b!], [id]);
    });
  }

  if (ids.hardDeleteEffect) {
    const id = ids.hardDeleteEffect;
    check(T('after deleteSourceIdentity the source is found by no query or search and cannot be restored'), [id], async (t) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.searchable(a!);
      await s.step('hard delete', [a!], [id]);
      // "Cannot be restored": whatever restoreSource answers (preconditions are "not shown"), nothing comes back.
      await s.step('restore', [a!], [id]);
    });
  }
}
