/**
 * Organization identity, every array and field of the seed's table with its wire type.
 *
 * Source: organization-identity-api.md, Resources, "Organization identity". All members are optional arrays of objects;
 * optional members may be null or absent in replies.
 */
import { z } from 'zod';
import { Bool, CodeSet, DateString, NumberString, Text, TimeString, arr, obj, opt } from '../common/wire.js';

export const BestTimeToContact = obj({
  day: opt(CodeSet),
  startTime: opt(TimeString),
  endTime: opt(TimeString),
  allDay: opt(Bool),
});

const addressFields = {
  addressName: opt(Text),
  addressType: opt(CodeSet),
  line1: opt(Text),
  line2: opt(Text),
  city: opt(Text),
  district: opt(Text),
  state: opt(Text),
  postalCode: opt(Text),
  country: opt(Text),
  latitude: opt(NumberString),
  longitude: opt(NumberString),
  validFrom: opt(DateString),
  validTo: opt(DateString),
};

export const OrganizationIdentity = obj({
  organizationNames: arr(
    obj({ legalBusinessName: opt(Text), otherOrgName: opt(Text), tradingName: opt(Text), parentOrgName: opt(Text) }),
  ),
  addresses: arr(obj(addressFields)),
  contactInformation: arr(
    obj({
      address: opt(obj(addressFields)),
      phoneList: arr(obj({ number: opt(NumberString), type: opt(CodeSet), bestTimeToContact: opt(BestTimeToContact) })),
      faxList: arr(obj({ number: opt(Text) })),
      bestTimeToContact: opt(BestTimeToContact),
    }),
  ),
  phoneNumbers: arr(
    obj({
      number: opt(z.string()),
      type: opt(z.string()),
      validFrom: opt(DateString),
      validTo: opt(DateString),
      bestTimeToContact: opt(BestTimeToContact),
    }),
  ),
  faxNumbers: arr(
    obj({ number: opt(z.string()), type: opt(z.string()), validFrom: opt(DateString), validTo: opt(DateString) }),
  ),
  emails: arr(obj({ email: opt(Text), type: opt(z.string()), validFrom: opt(DateString), validTo: opt(DateString) })),
  alternateIdentifiers: arr(
    obj({
      description: opt(Text),
      type: opt(z.string()),
      value: opt(Text),
      status: opt(Bool),
      issuer: opt(Text),
      issueDate: opt(DateString),
      startDate: opt(DateString),
      endDate: opt(DateString),
    }),
  ),
  externalUniqueIdentifier: arr(
    obj({
      issuer: opt(z.string()),
      value: opt(z.string()),
      status: opt(Text),
      startDate: opt(DateString),
      endDate: opt(DateString),
    }),
  ),
  authorizedOfficials: arr(
    obj({
      title: opt(Text),
      prefix: opt(Text),
      first: opt(Text),
      middle: opt(Text),
      last: opt(Text),
      suffix: opt(Text),
      credential: opt(Text),
      phoneNumber: opt(Text),
    }),
  ),
  employerIdentificationNumber: arr(
    obj({
      value: opt(z.string()),
      status: opt(Bool),
      issuer: opt(z.string()),
      issueDate: opt(DateString),
      validFrom: opt(DateString),
      validTo: opt(DateString),
    }),
  ),
  naicsClassifications: arr(
    obj({
      sector: opt(CodeSet),
      subSector: opt(CodeSet),
      industryGroup: opt(CodeSet),
      industry: opt(CodeSet),
      nationalIndustry: opt(CodeSet),
    }),
  ),
  sicClassifications: arr(obj({ code: opt(CodeSet) })),
  qualifications: arr(
    obj({
      type: opt(z.string()),
      qualification: opt(Text),
      status: opt(CodeSet),
      issuer: opt(z.string()),
      issueDate: opt(DateString),
      validFrom: opt(DateString),
      validTo: opt(DateString),
    }),
  ),
  types: arr(obj({ type: opt(Text), subType: opt(Text) })),
  contactOther: arr(
    obj({
      system: opt(CodeSet),
      type: opt(z.string()),
      value: opt(z.string()),
      validFrom: opt(DateString),
      validTo: opt(DateString),
    }),
  ),
  product: arr(
    obj({
      name: opt(Text),
      code: opt(Text),
      category: opt(Text),
      type: opt(z.string()),
      price: opt(NumberString),
      status: opt(z.string()),
      description: opt(z.string()),
      launchDate: opt(DateString),
      market: opt(Text),
      lineOfBusiness: opt(Text),
      serviceLines: arr(obj({ serviceLine: opt(Text), subServiceLine: opt(Text) })),
    }),
  ),
  numberOfEmployees: arr(obj({ numberOfEmployees: opt(NumberString) })),
  foundedDate: arr(obj({ foundedDate: opt(DateString) })),
  annualRevenue: arr(obj({ annualRevenue: opt(NumberString), year: opt(NumberString) })),
  legalStatus: arr(
    obj({
      type: opt(z.string()),
      source: opt(Text),
      effectiveDate: opt(DateString),
      verificationDate: opt(DateString),
      jurisdiction: opt(Text),
      registrationCountry: opt(CodeSet),
    }),
  ),
});
export type OrganizationIdentity = z.infer<typeof OrganizationIdentity>;

/** The arrays of the identity table; the generator self-test proves each one is produced. */
export const ORGANIZATION_IDENTITY_ARRAYS = Object.keys(OrganizationIdentity.shape) as Array<
  keyof OrganizationIdentity
>;
