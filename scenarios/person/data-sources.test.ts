/**
 * createDataSource: several data sources in one call; at most 10 per call (11 rejected). These
 * checks create data sources that no operation deletes, so they run only where the profile
 * allows it (createDataSources: on against the embedded reference, off against a configured
 * deployment unless set); every name lies in the run's namespace (client guard).
 * Source: person-provider-identity-api.md, Endpoints (/createDataSource), Limits.
 */
import { type Reply, answerOf } from '../../harness/reply.js';
import { OVER_LIMIT_ACCEPTED, invalidAccepted } from '../../specs/clauses/bad-input.js';
import {
  DATASOURCES_NOT_REPORTED,
  DATASOURCE_UNAVAILABLE,
  TEN_REFUSED,
  dataSourceUnavailable,
  dataSourcesNotReported,
  tenRefused,
} from '../../specs/clauses/person.js';
import { postContent } from '../../generators/common.js';
import { area, dataSourceName, person } from './person.js';

const { check } = area('data-sources');

check(
  'createDataSource creates several data sources in one call',
  ['PERSON-DATASOURCE-CREATES'],
  async (t) => {
    const names = [0, 1, 2].map((i) => dataSourceName(t, i));
    const r = await t.ok('createDataSource', { sources: names });
    t.judge(
      DATASOURCES_NOT_REPORTED,
      'PERSON-DATASOURCE-CREATES',
      dataSourcesNotReported(names, r.content?.datasourceCreationResponses),
      r,
    );
  },
  { createsDataSources: true },
);

check(
  'createDataSource accepts 10 names in one call',
  ['PERSON-DATASOURCE-CREATES', 'PERSON-DATASOURCE-LIMIT'],
  async (t) => {
    const names = Array.from({ length: 10 }, (_, i) => dataSourceName(t, i));
    const r = await t.call('createDataSource', { sources: names });
    t.judge(TEN_REFUSED, 'PERSON-DATASOURCE-LIMIT', tenRefused(answerOf(r)), r);
  },
  { createsDataSources: true },
);

check(
  'createDataSource with 11 names is rejected',
  ['PERSON-DATASOURCE-LIMIT'],
  async (t) => {
    const names = Array.from({ length: 11 }, (_, i) => dataSourceName(t, i));
    const r = await t.invalid('createDataSource', { sources: names });
    t.judge(
      OVER_LIMIT_ACCEPTED,
      'PERSON-DATASOURCE-LIMIT',
      invalidAccepted('createDataSource with 11 names', answerOf(r)),
      r,
    );
  },
  { createsDataSources: true },
);

/** The seed's bound on availability, and the pause between attempts while waiting for it. */
const AVAILABLE_WITHIN_MS = 15 * 60_000;
const ATTEMPT_EVERY_MS = 15_000;

check(
  'a new data source accepts a postIdentity naming it within 15 minutes',
  ['PERSON-DATASOURCE-AVAILABILITY'],
  async (t) => {
    const name = dataSourceName(t, 0);
    await t.ok('createDataSource', { sources: [name] }, { cites: ['PERSON-DATASOURCE-CREATES'] });
    const started = Date.now();
    let last: Reply | undefined;
    for (;;) {
      const source = { name, id: t.run.newNativeId() };
      last = await t.raw('postIdentity', postContent(person.make(t).identity, source, t.profile.sourcePlacement));
      if (last.success === true || Date.now() - started + ATTEMPT_EVERY_MS > AVAILABLE_WITHIN_MS) break;
      await t.pause(ATTEMPT_EVERY_MS);
    }
    t.judge(
      DATASOURCE_UNAVAILABLE,
      'PERSON-DATASOURCE-AVAILABILITY',
      dataSourceUnavailable(name, Math.round((Date.now() - started) / 1000), answerOf(last!)),
      last,
    );
  },
  // Waits up to 15 minutes against a deployment: only where the profile lets the run create data sources.
  { createsDataSources: true },
);
