/**
 * Bad input: a body that is not JSON, malformed dates, a non-boolean deathIndicator and a
 * postIdentity without an identity are rejected (HTTP 4xx or success=false) and not marked
 * retryable.
 * Source: person-provider-identity-api.md, Resources (Person identity), Errors.
 */
import type { Check } from '../../harness/check.js';
import type { Reply } from '../../harness/reply.js';
import { judgeRejected } from '../shared/bad-input.js';
import { area, person } from './person.js';

const { check } = area('bad-input');
const IDS = ['PERSON-BADINPUT-REJECTED', 'PERSON-ERR-NOT-RETRYABLE'];

const expectRejected = (t: Check, r: Reply, what: string) =>
  judgeRejected(t, r, what, { rejected: 'PERSON-BADINPUT-REJECTED', notRetryable: 'PERSON-ERR-NOT-RETRYABLE' });

check('a request body that is not JSON is rejected and not retryable', IDS, async (t) => {
  const r = await t.invalid('demographicsSearch', {}, { rawBody: '{"content": {"identity": ' });
  expectRejected(t, r, 'a truncated JSON body');
});

check('postIdentity without an identity is rejected and not retryable', IDS, async (t) => {
  const r = await t.invalid('postIdentity', { responseIdentityFormatNames: ['DEFAULT'] });
  expectRejected(t, r, 'postIdentity without content.identity');
});

const malformed: Array<{ what: string; mutate: (i: any) => void }> = [
  {
    what: 'a dateOfBirth not in yyyy-MM-dd (1985/04/12)',
    mutate: (i) => (i.datesOfBirth = [{ dateOfBirth: '1985/04/12' }]),
  },
  { what: 'an impossible dateOfBirth (2001-02-30)', mutate: (i) => (i.datesOfBirth = [{ dateOfBirth: '2001-02-30' }]) },
  {
    what: 'a deathDate not in yyyy-MM-dd (12.04.2020)',
    mutate: (i) => (i.deathDetails = [{ deathIndicator: true, deathDate: '12.04.2020' }]),
  },
  { what: 'a deathIndicator that is not a boolean ("Y")', mutate: (i) => (i.deathDetails = [{ deathIndicator: 'Y' }]) },
];

for (const m of malformed) {
  check(`postIdentity with ${m.what} is rejected and not retryable`, IDS, async (t) => {
    const made = person.makeInvalid(t);
    m.mutate((made.content as any).identity);
    const r = await t.invalid('postIdentity', made.content);
    expectRejected(t, r, `postIdentity with ${m.what}`);
  });
}
