/**
 * Source lifecycle rows shared by the organization and provider state tables: soft delete, restore, hard delete. Each
 * check is a short script (scenarios/shared/script.ts), one per row that its reply check and effect check share
 * (scenarios/shared/shared-script.ts), judged, at the step it is about, on its own requirement by the executable state
 * table and the whole-state oracle: the reply members the row names, or everything observable afterwards (lookups, the
 * identity's data, searches with the record's data, link IDs no longer in use).
 * Source: organization-identity-api.md, States and transitions; person-provider-identity-api.md, States and transitions
 * (provider rows).
 */
import { script } from '../script.js';
import { requirementFor } from '../../../specs/services.js';
import { type Scripted, type SharedCheck, registerShared, rowChecks } from './types.js';

const SOFT_DELETE = rowChecks<Scripted>(
  'soft delete',
  [
    [
      'lifecycle.softDeleteReply',
      'softdeletesource-lists-the-identity-in-linkidssoftdeleted-or-linkidsmodified',
      'softDeleteSource lists the identity in linkIdsSoftDeleted or linkIdsModified',
    ],
    [
      'lifecycle.softDeleteEffect',
      'after-softdeletesource-the-source-resolves-to-no-active-identity-and-no-search-returns-its-identity',
      'after softDeleteSource the source resolves to no active identity and no search returns its identity',
    ],
  ],
  async (t, judge, { walks, kind }) => {
    const s = script(t, walks);
    const [a] = await s.start(1, kind);
    await s.searchable(a!);
    await s.step('soft delete', [a!], judge);
  },
);

const RESTORE = rowChecks<Scripted>(
  'restore',
  [
    [
      'lifecycle.restoreReply',
      'restoresource-names-the-identity-the-source-returned-to',
      'restoreSource names the identity the source returned to',
    ],
    [
      'lifecycle.restoreEffect',
      'after-restoresource-the-source-is-active-again-and-shows-its-data',
      'after restoreSource the source is active again and shows its data',
    ],
  ],
  async (t, judge, { walks, kind }) => {
    const s = script(t, walks);
    const [a] = await s.start(1, kind);
    await s.step('soft delete', [a!]);
    await s.step('restore', [a!], judge);
  },
);

// The only-source reply check shares its script with the effect check; "cannot be restored" is judged on the effect
// requirement alone, after the step both judge.
const HARD_DELETE = rowChecks<Scripted>(
  'hard delete',
  [
    [
      'lifecycle.hardDeleteReply',
      'deletesourceidentity-of-an-identity-s-only-source-lists-it-in-linkidsdeleted',
      "deleteSourceIdentity of an identity's only source lists it in linkIdsDeleted",
    ],
    [
      'lifecycle.hardDeleteEffect',
      'after-deletesourceidentity-the-source-is-found-by-no-query-or-search-and-cannot-be-restored',
      'after deleteSourceIdentity the source is found by no query or search and cannot be restored',
    ],
  ],
  async (t, judge, { walks, kind }) => {
    const s = script(t, walks);
    const [a] = await s.start(1, kind);
    await s.searchable(a!);
    await s.step('hard delete', [a!], judge);
    // "Cannot be restored": whatever restoreSource answers (preconditions are "not shown"), nothing comes back.
    const effect = judge.filter((x) => x === requirementFor(t.service, 'lifecycle.hardDeleteEffect'));
    if (effect.length) await s.step('restore', [a!], effect);
  },
);

const HARD_DELETE_OF_LINKED: SharedCheck<Scripted> = {
  id: 'deletesourceidentity-of-one-of-two-linked-sources-lists-the-identity-in-linkidsmodified',
  role: 'lifecycle.hardDeleteReply',
  title: 'deleteSourceIdentity of one of two linked sources lists the identity in linkIdsModified',
  body: async (t, { s: { walks, kind }, id }) => {
    const s = script(t, walks);
    const [a, b] = await s.start(2, kind);
    await s.step('link', [a!, b!]);
    await s.step('hard delete', [b!], [id]);
  },
};

/** The soft delete, restore and hard delete checks a service's catalogue gives requirements, in this order. */
export const lifecycleChecks = (s: Scripted) =>
  registerShared(s, [...SOFT_DELETE, ...RESTORE, HARD_DELETE[0]!, HARD_DELETE_OF_LINKED, HARD_DELETE[1]!]);
