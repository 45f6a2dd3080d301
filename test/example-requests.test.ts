/**
 * The operations table's example requests (OperationSpec.example) and what a check must post
 * before sending one (scenarios/shared/requests.ts namesRecords): only the requests that name the
 * check's records A or B, their link IDs or A's identity need them posted; the others (a post of
 * a fresh source, a page of the feed, a new data source) are sent without posting anything first,
 * so a run creates no record it does not use.
 */
import { describe, expect, it } from 'vitest';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { namesRecords, namesSecondRecord } from '../scenarios/shared/requests.js';
import { SERVICES } from '../specs/services.js';

const profile = resolveProfile(loadProfile(undefined), false);

describe('example requests', () => {
  it.each(['organization', 'person', 'provider'] as const)(
    '%s: only postIdentity, searchNotifications and createDataSource name no record of the check',
    (service) => {
      const none = SERVICES[service].operations
        .map((op) => op.name)
        .filter((op) => !namesRecords(service, profile, op));
      expect(none.sort()).toEqual(
        service === 'person'
          ? ['createDataSource', 'postIdentity', 'searchNotifications']
          : ['postIdentity', 'searchNotifications'],
      );
    },
  );
});

describe('the second record', () => {
  it.each(['organization', 'person', 'provider'] as const)(
    '%s: is posted only for the requests that name two records',
    (service) => {
      const two = SERVICES[service].operations
        .map((op) => op.name)
        .filter((op) => namesSecondRecord(service, profile, op));
      expect(two.sort()).toEqual(
        [
          'addRelationshipService',
          'deleteRelationshipService',
          'linkIdentities',
          'mergeIdentities',
          'unlinkIdentities',
          'unmergeIdentities',
        ].sort(),
      );
    },
  );
});
