/**
 * Source lifecycle rows shared by the organization and provider state tables: soft delete, restore, hard delete. Each
 * check is a short script (scenarios/shared/script.ts), one per row that its reply check and effect check share
 * (scenarios/shared/shared-script.ts), judged, at the step it is about, on its own requirement by the executable state
 * table and the whole-state oracle: the reply members the row names, or everything observable afterwards (lookups, the
 * identity's data, searches with the record's data, link IDs no longer in use).
 * Source: organization-identity-api.md, States and transitions; person-provider-identity-api.md, States and transitions
 * (provider rows).
 */
import type { Check } from '../../../harness/check.js';
import { script } from '../script.js';
import { type SharedBody, sharedScript } from '../shared-script.js';
import type { StepName } from '../../../specs/state/step-names.js';
import { type Scripted, idsFor, pairedChecks, titled } from './types.js';

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
  const pair = (
    step: StepName,
    reply: [string | undefined, string],
    effect: [string | undefined, string],
    body: SharedBody,
  ) => pairedChecks(check, T, kind, step, [reply, effect], body);

  pair(
    'soft delete',
    [ids.softDeleteReply, 'softDeleteSource lists the identity in linkIdsSoftDeleted or linkIdsModified'],
    [
      ids.softDeleteEffect,
      'after softDeleteSource the source resolves to no active identity and no search returns its identity',
    ],
    async (t, judge) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.searchable(a!);
      await s.step('soft delete', [a!], judge);
    },
  );

  pair(
    'restore',
    [ids.restoreReply, 'restoreSource names the identity the source returned to'],
    [ids.restoreEffect, 'after restoreSource the source is active again and shows its data'],
    async (t, judge) => {
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.step('soft delete', [a!]);
      await s.step('restore', [a!], judge);
    },
  );

  // The only-source reply check shares its script with the effect check; "cannot be restored" is judged on the effect
  // requirement alone, after the step both judge.
  const hardDelete = ids.hardDeleteEffect
    ? [ids.hardDeleteReply, ids.hardDeleteEffect].filter((x): x is string => Boolean(x))
    : [];
  const hardDeleteBody: SharedBody = async (t, judge) => {
    const s = script(t, walks);
    const [a] = await s.start(1, kind);
    await s.searchable(a!);
    await s.step('hard delete', [a!], judge);
    // "Cannot be restored": whatever restoreSource answers (preconditions are "not shown"), nothing comes back.
    const effect = judge.filter((x) => x === ids.hardDeleteEffect);
    if (effect.length) await s.step('restore', [a!], effect);
  };
  const hardDeleteCheck = (t: Check) =>
    sharedScript(t, `hard delete/${kind ?? 'any kind'}`, hardDelete, hardDeleteBody);

  if (ids.hardDeleteReply) {
    const id = ids.hardDeleteReply;
    check(T("deleteSourceIdentity of an identity's only source lists it in linkIdsDeleted"), [id], async (t) => {
      if (hardDelete.length) return hardDeleteCheck(t);
      const s = script(t, walks);
      const [a] = await s.start(1, kind);
      await s.step('hard delete', [a!], [id]);
    });

    check(
      T('deleteSourceIdentity of one of two linked sources lists the identity in linkIdsModified'),
      [id],
      async (t) => {
        const s = script(t, walks);
        const [a, b] = await s.start(2, kind);
        await s.step('link', [a!, b!]);
        await s.step('hard delete', [b!], [id]);
      },
    );
  }

  if (ids.hardDeleteEffect) {
    const id = ids.hardDeleteEffect;
    check(
      T('after deleteSourceIdentity the source is found by no query or search and cannot be restored'),
      [id],
      hardDeleteCheck,
    );
  }
}
