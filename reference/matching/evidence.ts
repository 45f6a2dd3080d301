/**
 * Field comparisons shared by the reference's organization and provider matchers: organization names (legal suffixes
 * and generic words normalised, compared as token sets), street lines (USPS abbreviations normalised), identifiers,
 * phones and postal codes, each reduced to an agreement level, and the logistic that turns summed agreement weights
 * (Fellegi–Sunter style, as in person.ts) into a score in [0, 1].
 */
import { digits, normalize, similarity, soundsAlike, valuesOf } from './strings.js';

type Identity = Record<string, unknown>;

/** Agreement level: 0 agree, 1 partial, 2 disagree; null when either side has no value. */
export type Level = 0 | 1 | 2 | null;

/** Weight of a level from [agree, partial, disagree]; 0 when not comparable. */
export const weightOf = (w: readonly [number, number, number], l: Level) => (l === null ? 0 : w[l]);

/**
 * Score in [0, 1] from a summed weight: logistic with `linkWeight` at the match threshold 0.9 (the threshold of
 * reference/services.ts) and `scale` weight units per logit.
 */
export function logisticScore(total: number, linkWeight: number, scale: number): number {
  return 1 / (1 + Math.exp(-((total - linkWeight) / scale + Math.log(0.9 / 0.1))));
}

const LEGAL_SUFFIX_TOKENS = [
  ['incorporated'],
  ['inc'],
  ['limited', 'liability', 'company'],
  ['llc'],
  ['l', 'l', 'c'],
  ['corporation'],
  ['corp'],
  ['company'],
  ['co'],
  ['llp'],
  ['l', 'l', 'p'],
  ['professional', 'corporation'],
  ['pc'],
  ['p', 'c'],
  ['pllc'],
  ['p', 'l', 'l', 'c'],
  ['limited'],
  ['ltd'],
  ['plc'],
  ['lp'],
].sort((a, b) => b.length - a.length); // longest first: "p l l c" before "l l c"
/** Generic words of healthcare and business names, abbreviation → canonical word(s). */
const GENERIC: Record<string, string> = {
  hosp: 'hospital',
  med: 'medical',
  ctr: 'center',
  centre: 'center',
  st: 'saint',
  ste: 'saint',
  mt: 'mount',
  assoc: 'associates',
  assn: 'association',
  univ: 'university',
  hs: 'health system',
  svcs: 'services',
  svc: 'service',
  dept: 'department',
  mem: 'memorial',
  reg: 'regional',
  comm: 'community',
  clin: 'clinic',
  intl: 'international',
  natl: 'national',
  mgmt: 'management',
  bros: 'brothers',
  grp: 'group',
  hlth: 'health',
  phys: 'physicians',
};
const STOP = new Set(['the', 'and', 'of']);

export interface OrgName {
  /** Canonical tokens (legal suffix, stop words and store numbers removed, generic words expanded). */
  tokens: string[];
  /** The tokens joined, and the distinct tokens sorted and joined (for quick equality). */
  joined: string;
  set: string;
  /** Store/location number ("#0421") when the name carries one. */
  store?: string;
  /** Initials of the name's words as written, without and with the legal suffix (for acronyms). */
  initials: string[];
}

const orgNames = new Map<string, OrgName>();
/** Parses an organization name into canonical tokens; memoised (bounded like normalize). */
export function orgName(raw: unknown): OrgName | undefined {
  if (typeof raw !== 'string' || !raw.trim()) return undefined;
  const hit = orgNames.get(raw);
  if (hit) return hit;
  if (orgNames.size >= 200_000) orgNames.clear();
  const store = raw.match(/#\s*(\d+)/)?.[1]?.replace(/^0+/, '');
  const words = normalize(
    raw
      .replace(/#\s*\d+/g, ' ')
      .replace(/['\u2019]/g, '')
      .replace(/&/g, ' and '),
  )
    .split(' ')
    .filter(Boolean);
  const initialsOf = (ws: string[]) =>
    ws
      .filter((w) => !STOP.has(w) && !/^\d+$/.test(w))
      .map((w) => w[0])
      .join('');
  const withSuffix = initialsOf(words);
  // Legal suffixes at the end (possibly several: "Co Inc").
  for (let again = true; again; ) {
    again = false;
    for (const s of LEGAL_SUFFIX_TOKENS)
      if (words.length > s.length && s.every((t, i) => words[words.length - s.length + i] === t)) {
        words.splice(words.length - s.length);
        again = true;
        break;
      }
  }
  const initials = [...new Set([initialsOf(words), withSuffix])];
  const tokens = words.flatMap((w) => (GENERIC[w] ?? w).split(' ')).filter((w) => !STOP.has(w) && !/^\d+$/.test(w));
  const out: OrgName = {
    tokens,
    joined: tokens.join(' '),
    set: [...new Set(tokens)].sort().join(' '),
    ...(store ? { store } : {}),
    initials,
  };
  orgNames.set(raw, out);
  return out;
}

const closeMemo = new Map<string, boolean>();
/**
 * Two name tokens spelled alike: equal, or (both longer than 3) Jaro-Winkler ≥ 0.9 or the same double-metaphone code;
 * memoised.
 */
function tokenClose(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length <= 3 || b.length <= 3) return false;
  const key = a < b ? `${a}|${b}` : `${b}|${a}`;
  let hit = closeMemo.get(key);
  if (hit === undefined) {
    if (closeMemo.size >= 500_000) closeMemo.clear();
    closeMemo.set(key, (hit = similarity(a, b) >= 0.9 || soundsAlike(a, b)));
  }
  return hit;
}

/** True when every token of `small` has a close token in `large` (stops at the first that has none). */
const covered = (small: string[], large: string[]) => small.every((t) => large.some((u) => tokenClose(t, u)));

/**
 * Organization-name level of two parsed names: agree when the canonical token sets are equal or differ only by spelling
 * (a typo per token at most); partial when one name's tokens are all in the other (a dropped trailing word, a trade
 * name, an added "Foundation"), when one is the acronym of the other, or the token strings are close (Jaro-Winkler ≥
 * 0.93); else disagree.
 */
export function orgNameLevel(a: OrgName, b: OrgName): 0 | 1 | 2 {
  const A = a.tokens;
  const B = b.tokens;
  if (!A.length || !B.length) return 2;
  const joinedA = a.joined;
  const joinedB = b.joined;
  if (joinedA === joinedB || a.set === b.set) return 0;
  if (A.length === B.length && covered(A, B) && covered(B, A)) return 0;
  const [small, large] = A.length <= B.length ? [A, B] : [B, A];
  if (large.length - small.length <= 2 && covered(small, large)) return 1;
  const acronym = (x: string[], y: OrgName) =>
    x.length === 1 && x[0]!.length >= 3 && (y.initials.includes(x[0]!) || x[0] === y.tokens.map((t) => t[0]).join(''));
  if (acronym(A, b) || acronym(B, a)) return 1;
  // A typo across a word boundary ("medical center" / "medicalcenter"): nearly the same letters.
  if (
    joinedA[0] === joinedB[0] &&
    Math.abs(joinedA.length - joinedB.length) <= 2 &&
    similarity(joinedA.replace(/ /g, ''), joinedB.replace(/ /g, '')) >= 0.95
  )
    return 1;
  return 2;
}

/** Best level over every pair of values (lowest level number), null when either side has none. */
export function bestLevel<T>(as: T[], bs: T[], level: (a: T, b: T) => 0 | 1 | 2): Level {
  if (!as.length || !bs.length) return null;
  let best: 0 | 1 | 2 = 2;
  for (const a of as)
    for (const b of bs) {
      const l = level(a, b);
      if (l < best) best = l;
      if (best === 0) return 0;
    }
  return best;
}

/** Organization names of an identity (legal, trading and other names), parsed. */
export const orgNamesOf = (i: Identity): OrgName[] =>
  ['legalBusinessName', 'tradingName', 'otherOrgName']
    .flatMap((m) => valuesOf(i, 'organizationNames', m))
    .map(orgName)
    .filter((x): x is OrgName => x !== undefined);

/** Store numbers of an identity's names. */
export const storeNumbers = (names: OrgName[]) => names.map((n) => n.store).filter((s): s is string => s !== undefined);

/** Level of two identifier lists (digits only): agree when equal, partial when one digit or one adjacent swap apart. */
export function identifierLevel(as: string[], bs: string[]): Level {
  const A = as.filter(Boolean);
  const B = bs.filter(Boolean);
  return bestLevel(A, B, (a, b) => {
    if (a === b) return 0;
    if (a.length !== b.length) return 2;
    const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
    if (diff.length === 1) return 1;
    if (diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!])
      return 1;
    return 2;
  });
}

const STREET: Record<string, string> = {
  street: 'st',
  avenue: 'ave',
  road: 'rd',
  boulevard: 'blvd',
  drive: 'dr',
  lane: 'ln',
  court: 'ct',
  place: 'pl',
  terrace: 'ter',
  parkway: 'pkwy',
  highway: 'hwy',
  circle: 'cir',
  square: 'sq',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  suite: 'ste',
  apartment: 'apt',
};
/** A street line with USPS abbreviations (Street → st, North → n). */
export const streetLine = (v: unknown) =>
  normalize(v)
    .split(' ')
    .map((w) => STREET[w] ?? w)
    .join(' ');

/** Level of two street-line lists: agree when equal, partial when close (Jaro-Winkler ≥ 0.9), else disagree. */
export const streetLevel = (as: string[], bs: string[]): Level =>
  bestLevel(as.filter(Boolean), bs.filter(Boolean), (a, b) => (a === b ? 0 : similarity(a, b) >= 0.9 ? 1 : 2));

/** Equality level of two value lists (agree or disagree). */
export const equalLevel = (as: string[], bs: string[]): Level =>
  bestLevel(as.filter(Boolean), bs.filter(Boolean), (a, b) => (a === b ? 0 : 2));

/** Address, phone and identifier values of an identity, normalised for comparison. */
export const addressValues = (i: Identity) => ({
  line1: valuesOf(i, 'addresses', 'line1').map(streetLine),
  zip: valuesOf(i, 'addresses', 'postalCode')
    .map((v) => digits(v).slice(0, 5))
    .filter((z) => z.length === 5),
  city: valuesOf(i, 'addresses', 'city').map(normalize),
});
export const phoneValues = (i: Identity) =>
  valuesOf(i, 'phoneNumbers', 'number')
    .map((v) => digits(v).slice(-10))
    .filter((p) => p.length >= 7);
