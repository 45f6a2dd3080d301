/**
 * Requests in the vendor's form where the seeds and the vendor's published contract disagree on what the suite sends
 * (docs/vendor-contract.md), as the profile asks: applied by the client to a request's content as it leaves, so the
 * exchange shows what was sent while the check keeps the seeds' form of what it built (its judgement rests on the
 * seeds; replies are judged by them whatever the profile says). With the profile's defaults nothing changes.
 * - person.coordinates: an address's latitude and longitude in person identities as JSON numbers (the seed:
 *   person-provider-identity-api.md, Resources, Person identity: "latitude, longitude (number)"), as strings (the
 *   vendor's NUMBER), or left out;
 * - person.nameMembers: a name's firstName, middleName and lastName (the seed's table) as first, middle and last;
 * - person.deathDetails: deathIndicator (a boolean) and deathDate as deceased (Y or N, as the vendor's example
 *   writes N) and dateOfDeath, or left out;
 * - provider.searchIdentitySource: a provider demographicsSearch or demographicsQuery identity without a source
 *   reference gets one (the vendor's contract requires identity.sources there; the seed: "Identity fields and payload
 *   fields of the provider service: not shown"): a test source with a fresh native ID of the run's namespace, which no
 *   record has and nothing creates (both operations only read).
 */
import type { ServiceName } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';
import type { Profile } from './profile.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Operations whose content carries an identity (`content.identity`). */
const WITH_IDENTITY = new Set(['postIdentity', 'demographicsSearch', 'demographicsQuery']);
const SEARCHES = new Set(['demographicsSearch', 'demographicsQuery']);

/** An identity with its addresses' latitude and longitude as the profile sends them. */
function coordinates(identity: Obj, form: Profile['person']['coordinates']): Obj {
  return eachOf(identity, 'addresses', (a) => {
    const out: Obj = { ...a };
    for (const k of ['latitude', 'longitude'])
      if (k in out) {
        if (form === 'omit') delete out[k];
        else if (typeof out[k] === 'number') out[k] = String(out[k]);
      }
    return out;
  });
}

const VENDOR_NAMES: Record<string, string> = { firstName: 'first', middleName: 'middle', lastName: 'last' };

/** Each object of an identity's array `member` through `f`. */
function eachOf(identity: Obj, member: string, f: (o: Obj) => Obj): Obj {
  const list = identity[member];
  return Array.isArray(list) ? { ...identity, [member]: list.map((x) => (isObj(x) ? f(x) : x)) } : identity;
}

const renamed = (o: Obj, names: Record<string, string>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [names[k] ?? k, v]));

/** A person identity in the form the profile asks for. */
function personForm(identity: Obj, p: Profile['person']): Obj {
  let out = identity;
  if (p.coordinates !== 'number') out = coordinates(out, p.coordinates);
  if (p.nameMembers === 'vendor') out = eachOf(out, 'names', (n) => renamed(n, VENDOR_NAMES));
  if (p.deathDetails === 'omit') {
    const { deathDetails: _d, ...rest } = out;
    out = rest;
  } else if (p.deathDetails === 'vendor')
    out = eachOf(out, 'deathDetails', ({ deathIndicator, deathDate, ...rest }) => ({
      ...rest,
      ...(typeof deathIndicator === 'boolean' ? { deceased: deathIndicator ? 'Y' : 'N' } : {}),
      ...(deathDate !== undefined ? { dateOfDeath: deathDate } : {}),
    }));
  return out;
}

/** True when the profile changes nothing a request of `service` sends. */
export const seedsForm = (profile: Profile, service: ServiceName) =>
  service === 'person'
    ? profile.person.coordinates === 'number' &&
      profile.person.nameMembers === 'seeds' &&
      profile.person.deathDetails === 'seeds'
    : service === 'provider'
      ? !profile.provider.searchIdentitySource
      : true;

/**
 * The content of a request of `operation` in the form the profile asks for (the same object when it asks for none).
 * @param searchSource a source reference of the run that no record has, for a provider search's identity
 */
export function vendorForm(
  service: ServiceName,
  operation: string,
  content: unknown,
  profile: Profile,
  searchSource: () => SourceRef,
): unknown {
  if (seedsForm(profile, service) || !WITH_IDENTITY.has(operation) || !isObj(content) || !isObj(content.identity))
    return content;
  let identity = content.identity;
  if (service === 'person') identity = personForm(identity, profile.person);
  if (
    service === 'provider' &&
    SEARCHES.has(operation) &&
    !(Array.isArray(identity.sources) && identity.sources.length)
  ) {
    const { name, id } = searchSource();
    identity = { ...identity, sources: [{ name, id }] };
  }
  return { ...content, identity };
}
