/**
 * Hard negatives: groups of distinct entities that look alike, without which precision is trivially perfect. Kinds and
 * default shares of entities from linkage/README.md, "Data"; a share is the fraction of entities that belong to such a
 * group.
 *
 * Departure from the study: `household` uses 0.10 of persons (the study's knob default 0.5 is unchecked against any
 * population figure and would make most of a small benchmark households).
 */
import type { Faker } from '@faker-js/faker';
import { phonetic, type Rng } from './edits.js';
import {
  type Entity,
  type EntityKind,
  type Fields,
  addressFields,
  birthDate,
  ENTITY_BUILDERS,
  fictionalEin,
  fictionalNpi,
  givenName,
  phoneNumber,
  randomPlace,
} from './entities.js';

export interface HardNegativeKind {
  kind: string;
  entityKind: EntityKind;
  /** Default share of entities of `entityKind` in groups of this kind. */
  share: number;
  /** Builds one group: the new entities, numbered from `nextId`. */
  build(f: Faker, rng: Rng, nextId: number): Entity[];
}

const ADDRESS = ['line1', 'line2', 'city', 'state', 'postalCode'] as const;
const pickFields = (fields: Fields, names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, fields[n] ?? '']));
const group = (kind: string, entities: Entity[]) => {
  const id = `${kind}:${entities[0]!.id}`;
  for (const e of entities) e.hardNegative = { group: id, kind };
  return entities;
};
const shiftYear = (dob: string, years: number) => `${Number(dob.slice(0, 4)) + years}${dob.slice(4)}`;
/** A legal-form suffix at the end of a business name (a chain's brand drops it). */
const LEGAL_FORM = new RegExp(
  String.raw`\s+(Inc\.?|Incorporated|LLC|L\.L\.C\.|Limited Liability Company|Corp\.?|Corporation|Co\.?|Company|` +
    String.raw`LLP|L\.L\.P\.|PC|P\.C\.|Professional Corporation|PLLC|P\.L\.L\.C\.)$`,
);

/** A given name of the same sex sharing the first letter of `like` (often how twins are named). */
function siblingName(f: Faker, rng: Rng, like: string, sex: string): string {
  if (rng.chance(0.1)) {
    const v = phonetic(rng, like);
    if (v && v.toLowerCase() !== like.toLowerCase()) return v;
  }
  for (let i = 0; i < 30; i++) {
    const n = givenName(f, rng, sex);
    if (n !== like && (rng.chance(0.4) || n[0] === like[0])) return n;
  }
  return `${like[0]}${like.slice(1).split('').reverse().join('')}`;
}

/** Common US given+family combinations for collisions. */
const COMMON_NAMES: Array<[string, string, string]> = [
  ['James', 'Smith', 'M'],
  ['Michael', 'Johnson', 'M'],
  ['Robert', 'Williams', 'M'],
  ['David', 'Brown', 'M'],
  ['John', 'Jones', 'M'],
  ['Maria', 'Garcia', 'F'],
  ['Mary', 'Miller', 'F'],
  ['Jennifer', 'Davis', 'F'],
  ['Linda', 'Rodriguez', 'F'],
  ['Patricia', 'Martinez', 'F'],
  ['William', 'Wilson', 'M'],
  ['Elizabeth', 'Anderson', 'F'],
  ['Jose', 'Hernandez', 'M'],
  ['Susan', 'Taylor', 'F'],
  ['Richard', 'Thomas', 'M'],
];

export const HARD_NEGATIVE_KINDS: HardNegativeKind[] = [
  {
    kind: 'twins',
    entityKind: 'person',
    share: 0.03,
    build(f, rng, id) {
      const a = ENTITY_BUILDERS.person(f, rng, id);
      const sex = rng.chance(0.5) ? a.fields.sex! : a.fields.sex === 'F' ? 'M' : 'F';
      const b = ENTITY_BUILDERS.person(f, rng, id + 1, {
        ...pickFields(a.fields, ['family', 'dob', 'phone', ...ADDRESS]),
        sex,
        given: siblingName(f, rng, a.fields.given!, sex),
      });
      return group('twins', [a, b]);
    },
  },
  {
    kind: 'jr-sr',
    entityKind: 'person',
    share: 0.01,
    build(f, rng, id) {
      const father = ENTITY_BUILDERS.person(f, rng, id, {
        sex: 'M',
        dob: birthDate(rng, 1940, 1985),
        suffix: rng.chance(0.5) ? 'Sr' : '',
      });
      const son = ENTITY_BUILDERS.person(f, rng, id + 1, {
        ...pickFields(father.fields, ['given', 'middle', 'family', 'sex', 'phone', ...ADDRESS]),
        dob: shiftYear(father.fields.dob!, rng.int(18, 40)),
        suffix: 'Jr',
      });
      return group('jr-sr', [father, son]);
    },
  },
  {
    kind: 'household',
    entityKind: 'person',
    share: 0.1,
    build(f, rng, id) {
      const anchor = ENTITY_BUILDERS.person(f, rng, id, { dob: birthDate(rng, 1950, 1995) });
      const shared = pickFields(anchor.fields, ['phone', ...ADDRESS]);
      const members = [anchor];
      const n = rng.int(1, 2);
      for (let i = 0; i < n; i++) {
        const child = i > 0 || rng.chance(0.4);
        const sex = rng.chance(0.5) ? 'F' : 'M';
        members.push(
          ENTITY_BUILDERS.person(f, rng, id + members.length, {
            ...shared,
            sex,
            family: child || rng.chance(0.79) ? anchor.fields.family! : f.person.lastName(),
            dob: child ? shiftYear(anchor.fields.dob!, rng.int(20, 38)) : shiftYear(anchor.fields.dob!, rng.int(-5, 5)),
          }),
        );
      }
      return group('household', members);
    },
  },
  {
    kind: 'common-name',
    entityKind: 'person',
    share: 0.02,
    build(f, rng, id) {
      const [given, family, sex] = rng.pick(COMMON_NAMES);
      const a = ENTITY_BUILDERS.person(f, rng, id, { given, family, sex });
      const place = randomPlace(rng, { zip3: a.fields.postalCode!.slice(0, 3) });
      const b = ENTITY_BUILDERS.person(f, rng, id + 1, { given, family, sex, ...addressFields(f, rng, place) });
      return group('common-name', [a, b]);
    },
  },
  {
    kind: 'near-identity',
    entityKind: 'person',
    share: 0.001,
    build(f, rng, id) {
      const a = ENTITY_BUILDERS.person(f, rng, id);
      const b = ENTITY_BUILDERS.person(f, rng, id + 1, pickFields(a.fields, ['given', 'family', 'dob', 'sex']));
      return group('near-identity', [a, b]);
    },
  },
  ...(['organization', 'facility'] as const).flatMap((entityKind): HardNegativeKind[] => [
    {
      kind: 'chain-branches',
      entityKind,
      share: 0.1,
      build(f, rng, id) {
        const first = ENTITY_BUILDERS[entityKind](f, rng, id);
        const brand = first.fields.name!.replace(LEGAL_FORM, '');
        const ein = rng.chance(0.5) ? first.fields.ein! : undefined;
        const out: Entity[] = [];
        const n = rng.int(2, 4);
        for (let i = 0; i < n; i++) {
          const place = randomPlace(rng, { state: first.fields.state });
          out.push(
            ENTITY_BUILDERS[entityKind](f, rng, id + i, {
              name: `${brand} #${String(rng.int(1, 9999)).padStart(4, '0')}`,
              ...addressFields(f, rng, place),
              phone: phoneNumber(rng),
              npi: fictionalNpi(rng, 2),
              ein: ein ?? fictionalEin(rng),
            }),
          );
        }
        return group('chain-branches', out);
      },
    },
    {
      kind: 'same-name-other-city',
      entityKind,
      share: 0.05,
      build(f, rng, id) {
        const a = ENTITY_BUILDERS[entityKind](f, rng, id);
        const b = ENTITY_BUILDERS[entityKind](f, rng, id + 1, { name: a.fields.name! });
        return group('same-name-other-city', [a, b]);
      },
    },
    {
      kind: 'parent-subsidiary',
      entityKind,
      share: 0.02,
      build(f, rng, id) {
        const a = ENTITY_BUILDERS[entityKind](f, rng, id);
        const b = ENTITY_BUILDERS[entityKind](f, rng, id + 1, {
          ...pickFields(a.fields, [...ADDRESS]),
          name: `${a.fields.name} ${rng.pick(['Foundation', 'Physician Group', 'Holdings', 'Outpatient Services'])}`,
        });
        return group('parent-subsidiary', [a, b]);
      },
    },
  ]),
  {
    kind: 'same-name-practitioners',
    entityKind: 'practitioner',
    share: 0.02,
    build(f, rng, id) {
      const a = ENTITY_BUILDERS.practitioner(f, rng, id);
      const fatherSon = rng.chance(0.5);
      const b = ENTITY_BUILDERS.practitioner(f, rng, id + 1, {
        ...pickFields(
          a.fields,
          fatherSon
            ? ['given', 'middle', 'family', 'sex', 'phone', 'specialty', ...ADDRESS]
            : ['given', 'family', 'sex', 'specialty', 'state'],
        ),
        ...(fatherSon ? { suffix: 'Jr' } : {}),
        npi: fictionalNpi(rng, 1),
      });
      if (fatherSon) a.fields.suffix = rng.chance(0.5) ? 'Sr' : '';
      return group('same-name-practitioners', [a, b]);
    },
  },
];

/** Mean size of one group of a kind (to turn an entity share into a per-draw group probability). */
export const MEAN_GROUP_SIZE: Record<string, number> = {
  twins: 2,
  'jr-sr': 2,
  household: 2.5,
  'common-name': 2,
  'near-identity': 2,
  'chain-branches': 3,
  'same-name-other-city': 2,
  'parent-subsidiary': 2,
  'same-name-practitioners': 2,
};
