/**
 * createDataSource: several data sources in one call; at most 10 per call (11 rejected). These
 * checks create data sources that no operation deletes, so they run only where the profile
 * allows it (createDataSources: on against the embedded reference, off against a configured
 * deployment unless set); every name lies in the run's namespace (client guard).
 * Source: person-provider-identity-api.md, Endpoints (/createDataSource), Limits.
 */
import { expect } from 'vitest';
import { describeReply } from '../../harness/check.js';
import { type Reply, isRejection } from '../../harness/reply.js';
import { postContent } from '../../generators/common.js';
import { area, dataSourceName, person } from './person.js';

const { check } = area('data-sources');

check(
  'createDataSource creates several data sources in one call',
  ['PERSON-DATASOURCE-CREATES'],
  async (t) => {
    const names = [0, 1, 2].map((i) => dataSourceName(t, i));
    const r = await t.ok('createDataSource', { sources: names });
    const results = r.content?.datasourceCreationResponses;
    await t.rule('PERSON-DATASOURCE-CREATES', () => {
      if (Array.isArray(results))
        expect(results.map((x) => x.datasource).sort(), 'one result per requested name').toEqual([...names].sort());
    });
  },
  { createsDataSources: true },
);

check(
  'createDataSource accepts 10 names in one call',
  ['PERSON-DATASOURCE-CREATES', 'PERSON-DATASOURCE-LIMIT'],
  async (t) => {
    const names = Array.from({ length: 10 }, (_, i) => dataSourceName(t, i));
    const r = await t.call('createDataSource', { sources: names });
    await t.rule('PERSON-DATASOURCE-LIMIT', () =>
      expect(r.success, `10 data sources are within the limit: ${describeReply(r)}`).toBe(true),
    );
  },
  { createsDataSources: true },
);

check(
  'createDataSource with 11 names is rejected',
  ['PERSON-DATASOURCE-LIMIT'],
  async (t) => {
    const names = Array.from({ length: 11 }, (_, i) => dataSourceName(t, i));
    const r = await t.invalid('createDataSource', { sources: names });
    await t.rule('PERSON-DATASOURCE-LIMIT', () =>
      expect(isRejection(r, { sentInvalid: true }), `11 data sources in one call must be rejected, got ${describeReply(r)}`).toBe(true),
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
    await t.rule('PERSON-DATASOURCE-AVAILABILITY', () =>
      expect(
        last!.success,
        `a post on data source ${name} ${Math.round((Date.now() - started) / 1000)} s after its creation: ${describeReply(last!)}`,
      ).toBe(true),
    );
  },
  // Waits up to 15 minutes against a deployment: only where the profile lets the run create data sources.
  { createsDataSources: true },
);
