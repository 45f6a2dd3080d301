/**
 * The provider service's scenario kit: its check registrar per area and one steps kit per provider type (practitioner,
 * type 1; health facility, type 2), the type written where the profile's provider.typeMember says.
 */
import type { Faker } from '@faker-js/faker';
import { isValidNpi, luhnCheckDigit, providerIdentity } from '../../generators/provider.js';
import { scenario } from '../../harness/register.js';
import { runInfo } from '../../harness/targets.js';
import type { ProviderKind } from '../../specs/provider/identity.js';
import { steps } from '../shared/steps.js';

export const area = (name: string) => scenario('provider', name);

const kitOf = (kind: ProviderKind) =>
  steps((f, source) => providerIdentity(kind, f, source, runInfo().profile.provider));

export const practitioner = kitOf('practitioner');
export const healthFacility = kitOf('healthFacility');

/** Both provider types, for tables that run once per type. */
export const TYPES = [
  { kind: 'practitioner' as const, label: 'practitioner', kit: practitioner },
  { kind: 'healthFacility' as const, label: 'health facility', kit: healthFacility },
];

/** The profile's type value for a kind. */
export const typeValue = (kind: ProviderKind, p: { practitionerType: string; healthFacilityType: string }) =>
  kind === 'practitioner' ? p.practitionerType : p.healthFacilityType;

/** Another check-digit-valid NPI near `npi` (the i-th), for near-copy identities. */
const otherNpi = (npi: string, i: number) => {
  const first9 = `${npi.slice(0, 7)}${String((Number(npi.slice(7, 9)) + 17 * i) % 100).padStart(2, '0')}`;
  const next = `${first9}${luhnCheckDigit(`80840${first9}`)}`;
  return isValidNpi(next) ? next : npi;
};

/** A near copy of a provider identity: another NPI, address and phone; names and type kept. */
export function providerVariant(identity: any, i: number) {
  identity.npis = (identity.npis ?? []).map((n: any) => ({ ...n, npi: otherNpi(String(n.npi), i) }));
  identity.addresses = (identity.addresses ?? []).map((a: any) => ({
    ...a,
    line1: `${100 + i} Variant Way`,
    postalCode: String(10000 + i * 1111),
  }));
  identity.phoneNumbers = [];
  delete identity.contactInformation;
  return identity;
}

/** An identity no posted provider resembles. */
export const providerNonsense = (f: Faker) => ({
  names: [{ first: `Zqxv${f.string.alpha(8)}`, last: `Plorth${f.string.alpha(8)}` }],
  organizationNames: [{ legalBusinessName: `Zqxv ${f.string.alpha(12)} Plorth` }],
  addresses: [{ postalCode: '00000', city: f.string.alpha(10) }],
});
