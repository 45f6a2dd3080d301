/**
 * The corruption operators with their default probabilities per record, per entity kind, in three layers: L1 life
 * events, L2 formatting ("should never hurt"), L3 data-entry errors, plus the completeness profile (blanks). Source:
 * linkage/README.md, "Data" (Person, Organization and Practitioner tables); the probabilities below are the study's
 * defaults unless a comment says why not.
 *
 * An operator returns the fields it changes, or undefined when it does not apply to the record ("(if)" in the study's
 * tables). L1/L3 apply only to additional records; L2 and completeness to every record. Order per record: L1 → L3 →
 * completeness → L2; at most one non-L2 operator per field.
 */
import { ocr, type Rng, swapWords, typo } from './edits.js';
import { type EntityKind, addressFields, phoneNumber, randomPlace } from './entities.js';
import {
  CREDENTIALS,
  GENERIC_WORDS,
  LEGAL_SUFFIXES,
  PLACEHOLDER_DOBS,
  PLACEHOLDER_SSNS,
  SPECIALTIES,
  STREET_ABBREVIATIONS,
} from './tables.js';
import {
  type Operator,
  ADDRESS,
  addressOperators,
  blank,
  digitOperators,
  dobDigit,
  dobTranspose,
  edit,
  move,
  nameOperators,
  onField,
  op,
  phoneFormat,
  phoneOperators,
  stripPunctuation,
} from './operator-kit.js';

export type { Layer, OpContext, Operator } from './operator-kit.js';

export const PERSON_OPERATORS: Operator[] = [
  ...nameOperators({ typo: 0.05, nickname: 0.06, middleInitial: 0.2, middleBlank: 0.35, familyTypo: 0.04, swap: 0.02 }),
  op('family.married', 'L1', ['family'], 0.03, (c) => {
    const age = 2025 - Number(c.fields.dob?.slice(0, 4));
    if (c.fields.sex !== 'F' || !(age >= 18) || !c.fields.family) return undefined;
    const other = c.f.person.lastName();
    return { family: c.rng.chance(0.94) ? other : `${c.fields.family}-${other}` };
  }),
  op('sex.wrong', 'L3', ['sex'], 0.01, (c) =>
    c.fields.sex ? { sex: c.rng.pick(['F', 'M', 'U'].filter((s) => s !== c.fields.sex)) } : undefined,
  ),
  onField('dob', 'dob.day-month-swap', 'L3', 0.01, (_r, v) => {
    const [y, m, d] = v.split('-');
    return Number(d) <= 12 && d !== m ? `${y}-${d}-${m}` : undefined;
  }),
  op('dob.digit', 'L3', ['dob'], 0.02, edit('dob', dobDigit)),
  op('dob.transposition', 'L3', ['dob'], 0.01, edit('dob', dobTranspose)),
  onField(
    'dob',
    'dob.year-off-by-one',
    'L3',
    0.005,
    (r, v) => `${Number(v.slice(0, 4)) + (r.chance(0.5) ? 1 : -1)}${v.slice(4)}`,
  ),
  onField('dob', 'dob.placeholder', 'L3', 0.002, (r, v) =>
    r.chance(0.5) ? PLACEHOLDER_DOBS[0] : `${v.slice(0, 4)}-01-01`,
  ),
  op('dob.blank', 'completeness', ['dob'], 0.01, blank('dob')),
  op('ssn.blank', 'completeness', ['ssn'], 0.25, blank('ssn')),
  onField('ssn', 'ssn.last-four', 'L2', 0.05, (_r, v) => (v.length > 4 ? v.replace(/\D/g, '').slice(-4) : undefined)),
  ...digitOperators('ssn', 0.02, 0.01),
  op('ssn.placeholder', 'L3', ['ssn'], 0.005, (c) => ({ ssn: c.rng.pick(PLACEHOLDER_SSNS) })),
  op('ssn.borrowed', 'L3', ['ssn'], 0.002, (c) => {
    const other = c.household.find((h) => h.fields.ssn);
    return other ? { ssn: other.fields.ssn! } : undefined;
  }),
  ...addressOperators(0.1),
  ...phoneOperators(0.15, 0.08),
  op('phone.other-own', 'L1', ['phone'], 0.05, (c) => ({ phone: phoneNumber(c.rng) })),
  onField('email', 'email.new', 'L1', 0.1, (r, v) =>
    v.replace(/^[^@]*/, (u) => `${u.split('.')[0]}${r.int(100, 999)}`),
  ),
  onField('email', 'email.typo', 'L3', 0.01, typo),
  op('email.blank', 'completeness', ['email'], 0.3, blank('email')),
];

/** Legal-suffix variant: another spelling of the same family, or dropped. */
const legalSuffix = (rng: Rng, v: string) => {
  for (const family of LEGAL_SUFFIXES)
    for (const s of family) {
      const re = new RegExp(`\\s+${s.replace(/\./g, '\\.')}$`, 'i');
      if (re.test(v))
        return rng.chance(0.3) ? v.replace(re, '') : v.replace(re, ` ${rng.pick(family.filter((x) => x !== s))}`);
    }
  return undefined;
};

/** The name without its legal suffix (a trade name), undefined when it has none. */
const dropLegalSuffix = (v: string) => {
  for (const family of LEGAL_SUFFIXES)
    for (const s of family) {
      const re = new RegExp(`\\s+${s.replace(/\./g, '\\.')}$`, 'i');
      if (re.test(v)) return v.replace(re, '');
    }
  return undefined;
};

export const ORGANIZATION_OPERATORS: Operator[] = [
  op('name.legal-suffix', 'L2', ['name'], 0.25, edit('name', legalSuffix)),
  onField('name', 'name.generic-word', 'L2', 0.2, (r, v) => swapWords(r, v, GENERIC_WORDS)),
  onField('name', 'name.ampersand', 'L2', 0.1, (_r, v) =>
    v.includes('&') ? v.replace('&', 'and') : / and /i.test(v) ? v.replace(/ and /i, ' & ') : undefined,
  ),
  onField('name', 'name.leading-the', 'L2', 0.05, (_r, v) => (/^the /i.test(v) ? v.slice(4) : `The ${v}`)),
  onField('name', 'name.punctuation-case', 'L2', 0.3, (r, v) =>
    r.chance(0.5) ? v.toUpperCase() : (stripPunctuation(r, v) ?? v.toLowerCase()),
  ),
  onField('name', 'name.acronym', 'L2', 0.02, (_r, v) => {
    const words = v.split(/\s+/).filter((w) => /^[A-Z]/.test(w) && !/^(of|and|the)$/i.test(w));
    return words.length >= 3 ? words.map((w) => w[0]).join('') : undefined;
  }),
  onField('name', 'name.location-number', 'L2', 0.03, (r, v) =>
    / #\d+/.test(v) ? v.replace(/ #\d+/, '') : `${v} #${String(r.int(1, 9999)).padStart(4, '0')}`,
  ),
  onField('name', 'name.trailing-word-dropped', 'L3', 0.05, (_r, v) => {
    const words = v.split(' ');
    return words.length >= 3 ? words.slice(0, -1).join(' ') : undefined;
  }),
  onField('name', 'name.trade-name', 'L1', 0.05, (_r, v) => dropLegalSuffix(v)),
  onField('name', 'name.typo', 'L3', 0.03, typo),
  op('name.ocr', 'L3', ['name'], 0.005, edit('name', ocr)),
  op('address.suite-format', 'L2', ['line2'], 0.15, (c) => {
    const v = c.fields.line2;
    if (!v) return { line2: `Suite ${c.rng.int(100, 900)}` };
    const n = v.replace(/^(Apt|Unit|Suite|Ste)\.?\s*/i, '');
    return { line2: c.rng.pick([`Ste ${n}`, `#${n}`, `Suite ${n}`, `Fl ${n}`]) };
  }),
  onField('postalCode', 'address.zip-plus-4', 'L2', 0.1, (r, v) =>
    /^\d{5}$/.test(v) ? `${v}-${String(r.int(1, 9999)).padStart(4, '0')}` : undefined,
  ),
  op('address.po-box', 'L1', ['line1', 'line2'], 0.03, (c) => ({ line1: `PO Box ${c.rng.int(1, 9999)}`, line2: '' })),
  op('address.billing', 'L1', ADDRESS, 0.05, (c) =>
    addressFields(c.f, c.rng, randomPlace(c.rng, { zip3: c.fields.postalCode?.slice(0, 3) })),
  ),
  op('address.relocated', 'L1', ADDRESS, 0.03, move),
  onField('line1', 'address.street-abbreviation', 'L2', 0.25, (r, v) => swapWords(r, v, STREET_ABBREVIATIONS)),
  op('phone.department', 'L1', ['phone'], 0.2, (c) => ({ phone: phoneNumber(c.rng) })),
  op('phone.blank', 'completeness', ['phone'], 0.1, blank('phone')),
  op('phone.format', 'L2', ['phone'], 0.3, edit('phone', phoneFormat)),
  op('npi.blank', 'completeness', ['npi'], 0.2, blank('npi')),
  ...digitOperators('npi', 0.01),
  op('ein.blank', 'completeness', ['ein'], 0.4, blank('ein')),
  ...digitOperators('ein', 0.01),
];

export const PRACTITIONER_OPERATORS: Operator[] = [
  ...nameOperators({
    typo: 0.04,
    nickname: 0.04,
    middleInitial: 0.15,
    middleBlank: 0.15,
    familyTypo: 0.03,
    swap: 0.01,
  }),
  op('prefix.dr', 'L2', ['prefix'], 0.2, (c) => ({ prefix: c.fields.prefix ? '' : 'Dr.' })),
  onField('credential', 'credential.format', 'L2', 0.3, (r, v) => {
    const family = Object.entries(CREDENTIALS).find(([k, forms]) => k === v || forms.includes(v));
    return r.chance(0.3) || !family ? '' : r.pick(family[1].filter((x) => x !== v));
  }),
  onField('specialty', 'specialty.wording', 'L2', 0.2, (_r, v) => {
    const pair = SPECIALTIES.find(([a, b]) => a === v || b === v);
    return pair ? (pair[0] === v ? pair[1] : pair[0]) : undefined;
  }),
  op('location.other-practice', 'L1', ADDRESS, 0.25, move),
  onField('line1', 'address.street-abbreviation', 'L2', 0.25, (r, v) => swapWords(r, v, STREET_ABBREVIATIONS)),
  op('phone.new', 'L1', ['phone'], 0.2, (c) => ({ phone: phoneNumber(c.rng) })),
  op('phone.blank', 'completeness', ['phone'], 0.1, blank('phone')),
  op('phone.format', 'L2', ['phone'], 0.3, edit('phone', phoneFormat)),
  op('npi.blank', 'completeness', ['npi'], 0.1, blank('npi')),
  ...digitOperators('npi', 0.01, 0.005),
  op('sex.blank', 'completeness', ['sex'], 0.1, blank('sex')),
];

/** Operators by entity kind (a health facility is corrupted like an organization). */
export const OPERATORS: Record<EntityKind, Operator[]> = {
  person: PERSON_OPERATORS,
  organization: ORGANIZATION_OPERATORS,
  facility: ORGANIZATION_OPERATORS,
  practitioner: PRACTITIONER_OPERATORS,
};
