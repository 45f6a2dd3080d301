/**
 * Person identity: every array and field of the seed's table with its type.
 *
 * Source: person-provider-identity-api.md, Resources and their fields, "Person identity" and "Source entry". In replies
 * every attribute object may also carry `sources[]` (source entries) and `clusterStatus` (a string; ACTIVE is the one
 * value shown). All members are optional and may be null or absent (tolerant reading). Where the vendor description
 * names members differently (first/middle/last) the seed's names (firstName/middleName/lastName) are used.
 */
import { z } from 'zod';
import { Bool, DateString, Text, arr, obj, opt } from '../common/wire.js';

/** Source entry on a person attribute: `{sourceId, sourceName, displayName, nativeId}`. */
export const PersonSourceEntry = obj({
  sourceId: opt(Text),
  sourceName: opt(Text),
  displayName: opt(Text),
  nativeId: opt(Text),
});

/** An attribute object: its own fields plus the reply-side `sources[]` and `clusterStatus`. */
const attribute = <S extends z.core.$ZodLooseShape>(shape: S) =>
  obj({ ...shape, sources: arr(PersonSourceEntry), clusterStatus: opt(Text) });

export const PersonIdentity = obj({
  names: arr(
    attribute({
      prefix: opt(Text),
      firstName: opt(Text),
      middleName: opt(Text),
      lastName: opt(Text),
      suffix: opt(Text),
    }),
  ),
  addresses: arr(
    attribute({
      type: opt(Text),
      line1: opt(Text),
      line2: opt(Text),
      city: opt(Text),
      state: opt(Text),
      postalCode: opt(Text),
      country: opt(Text),
      latitude: opt(z.number()),
      longitude: opt(z.number()),
    }),
  ),
  datesOfBirth: arr(attribute({ dateOfBirth: opt(DateString) })),
  ssns: arr(attribute({ ssn: opt(Text) })),
  genders: arr(attribute({ gender: opt(Text) })),
  phoneNumbers: arr(attribute({ countryCode: opt(Text), number: opt(Text), extension: opt(Text), type: opt(Text) })),
  emails: arr(attribute({ email: opt(z.email()), type: opt(Text) })),
  deathDetails: arr(attribute({ deathIndicator: opt(Bool), deathDate: opt(DateString) })),
});
export type PersonIdentity = z.infer<typeof PersonIdentity>;

/** The arrays of the identity table; the generator self-test proves each one is produced. */
export const PERSON_IDENTITY_ARRAYS = Object.keys(PersonIdentity.shape) as Array<keyof PersonIdentity>;
