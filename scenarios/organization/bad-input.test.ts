/**
 * Bad input: a body that is not JSON, and malformed DATE and TIME values, are rejected
 * (HTTP 4xx or success=false) and not marked retryable.
 * Source: organization-identity-api.md, Resources (Field data types), Errors.
 */
import type { Check } from '../../harness/check.js';
import type { Reply } from '../../harness/reply.js';
import { judgeRejected } from '../shared/bad-input.js';
import { area, org } from './org.js';

const { check } = area('bad-input');

const expectRejected = (t: Check, r: Reply, what: string) =>
  judgeRejected(t, r, what, { rejected: 'ORG-BADINPUT-REJECTED', notRetryable: 'ORG-ERR-NOT-RETRYABLE' });

check(
  'a request body that is not JSON is rejected and not retryable',
  ['ORG-BADINPUT-REJECTED', 'ORG-ERR-NOT-RETRYABLE'],
  async (t) => {
    const r = await t.invalid('demographicsSearch', {}, { rawBody: '{"content": {"identity": ' });
    expectRejected(t, r, 'a truncated JSON body');
  },
);

const malformed: Array<{ what: string; mutate: (i: any) => void }> = [
  {
    what: 'a DATE not in yyyy-MM-dd (foundedDate 2020/01/31)',
    mutate: (i) => (i.foundedDate = [{ foundedDate: '2020/01/31' }]),
  },
  { what: 'an impossible DATE (validFrom 2021-02-30)', mutate: (i) => (i.addresses[0].validFrom = '2021-02-30') },
  {
    what: 'a TIME not in HH:mm (startTime 9am)',
    mutate: (i) => (i.phoneNumbers[0].bestTimeToContact.startTime = '9am'),
  },
  {
    what: 'an impossible TIME (endTime 25:61)',
    mutate: (i) => (i.phoneNumbers[0].bestTimeToContact.endTime = '25:61'),
  },
];

for (const m of malformed) {
  check(
    `postIdentity with ${m.what} is rejected and not retryable`,
    ['ORG-BADINPUT-REJECTED', 'ORG-ERR-NOT-RETRYABLE'],
    async (t) => {
      const made = org.makeInvalid(t);
      m.mutate((made.content as any).identity);
      const r = await t.invalid('postIdentity', made.content);
      expectRejected(t, r, `postIdentity with ${m.what}`);
    },
  );
}
