/**
 * The boundary values come from the types (generators/boundaries.ts, specs/common/leaf-types.ts):
 * one table per value type, each value named and valid for its type, placed so that the full
 * scope gives every leaf every value of its type and the default scope a sample a run seed fixes.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type Boundary,
  boundaryRequests,
  boundaryTable,
  chosenLeaves,
  isWide,
  nativeIdBoundaries,
  withBoundaries,
} from '../generators/boundaries.js';
import { organizationIdentity } from '../generators/organization.js';
import { seededFaker } from '../generators/seed.js';
import { type ValueLeaf, type ValueType, leafTypes, valueLeaves } from '../specs/common/leaf-types.js';
import { RequestEnvelopeChosen } from '../specs/common/envelope.js';
import { DateString, DateTimeString, NumberString, TimeString } from '../specs/common/wire.js';
import { OrganizationIdentity } from '../specs/organization/identity.js';
import { PersonIdentity } from '../specs/person/identity.js';
import { operation } from '../specs/services.js';

const TYPES: ValueType[] = [
  'TEXT',
  'EMAIL',
  'NUMBER',
  'JSON-NUMBER',
  'INTEGER',
  'DATE',
  'TIME',
  'DATE-TIME',
  'BOOLEAN',
];
const VALID: Record<string, z.ZodType> = {
  TEXT: z.string(),
  EMAIL: z.email(),
  NUMBER: NumberString,
  'JSON-NUMBER': z.number(),
  INTEGER: z.number().int(),
  DATE: DateString,
  TIME: TimeString,
  'DATE-TIME': DateTimeString,
  BOOLEAN: z.boolean(),
};
const table = (type: ValueType) => boundaryTable(type, 'Qzkv');
const pathOf = (l: ValueLeaf) => l.path.join('.');

describe('the boundary tables', () => {
  it.each(TYPES)('%s: every value is named once and is a value of its type', (type) => {
    const rows = table(type);
    expect(rows.length).toBeGreaterThan(1);
    expect(new Set(rows.map((b) => b.name)).size).toBe(rows.length);
    for (const b of rows) expect(VALID[type]!.safeParse(b.value).success, `${type} ${b.name}`).toBe(true);
  });

  it('CODE-SET has no boundary values: its allowed values are the deployment\'s ("not shown")', () => {
    expect(boundaryTable('CODE-SET', 'Qzkv')).toEqual([]);
  });

  it('text lengths are what their names say: characters, or bytes of multi-byte characters', () => {
    const by = new Map(table('TEXT').map((b) => [b.name, b.value as string]));
    for (const n of [1, 32, 36, 64, 255, 256, 4000, 4096]) expect([...by.get(`length ${n}`)!]).toHaveLength(n);
    expect(Buffer.byteLength(by.get('255 two-byte characters (510 bytes)')!)).toBe(510);
    expect(Buffer.byteLength(by.get('64 four-byte characters (256 bytes)')!)).toBe(256);
    expect(Buffer.byteLength(by.get('1024 four-byte characters (4096 bytes)')!)).toBe(4096);
    expect(by.get('astral emoji')).toMatch(/[\u{10000}-\u{10FFFF}]/u);
    expect(by.get('combining marks')).toMatch(/\p{M}/u);
    expect(by.get('control-adjacent whitespace')).toMatch(/\t.*\n.*\r\n/s);
    // Narrow (255 bytes or fewer) and wide values go in separate requests.
    expect(
      table('TEXT')
        .filter(isWide)
        .map((b) => b.name),
    ).toEqual([
      'length 256',
      'length 4000',
      'length 4096',
      '255 two-byte characters (510 bytes)',
      '64 four-byte characters (256 bytes)',
      '2000 two-byte characters (4000 bytes)',
      '1024 four-byte characters (4096 bytes)',
    ]);
  });

  it("native IDs all lie in the run's namespace, none shorter than it", () => {
    const prefix = 'cf-20261201-120000-abcd-bad-Qzkv';
    const ids = nativeIdBoundaries(prefix);
    for (const b of ids) expect(String(b.value).startsWith(prefix), b.name).toBe(true);
    expect(ids.map((b) => b.name)).not.toContain('length 1');
    expect([...String(ids.find((b) => b.name === 'length 255')!.value)]).toHaveLength(255);
  });
});

describe('the members of a type', () => {
  it('are read from the schemas: wire types, CODE-SET, e-mail, JSON numbers, integers, a map of text', () => {
    const typeAt = (leaves: ValueLeaf[], path: string) => leaves.find((l) => pathOf(l) === path)?.type;
    const org = valueLeaves(OrganizationIdentity);
    expect(typeAt(org, 'organizationNames.[].legalBusinessName')).toBe('TEXT');
    expect(typeAt(org, 'addresses.[].addressType')).toBe('CODE-SET');
    expect(typeAt(org, 'addresses.[].latitude')).toBe('NUMBER');
    expect(typeAt(org, 'contactInformation.[].bestTimeToContact.startTime')).toBe('TIME');
    const person = valueLeaves(PersonIdentity);
    expect(typeAt(person, 'emails.[].email')).toBe('EMAIL');
    expect(typeAt(person, 'addresses.[].latitude')).toBe('JSON-NUMBER');
    const search = valueLeaves(operation('organization', 'demographicsSearch').request);
    expect(typeAt(search, 'maxSearchResults')).toBe('INTEGER');
    expect(typeAt(search, 'matchScoreThreshold')).toBe('JSON-NUMBER');
    const relationship = valueLeaves(operation('organization', 'addRelationshipService').request);
    expect(typeAt(relationship, 'relationship.details.{}')).toBe('TEXT');
    expect(typeAt(relationship, 'relationship.startDate')).toBe('DATE-TIME');
    expect(valueLeaves(RequestEnvelopeChosen).map(pathOf)).toEqual(['auditId', 'auditLogMap.{}', 'trackingId']);
  });

  it("leafTypes keeps to the wire table's leaves outside unions and maps", () => {
    const rel = leafTypes(operation('organization', 'searchRelationshipsService').reply);
    expect(rel).toEqual([]);
    expect(leafTypes(OrganizationIdentity).find((l) => l.path.join('.') === 'addresses.[].addressType')?.type).toBe(
      'TEXT',
    );
  });

  it('chosen: those the request holds a value at, less those holding a value the deployment gives', () => {
    const leaves = valueLeaves(OrganizationIdentity);
    const sent = { organizationNames: [{ legalBusinessName: 'Acme', otherOrgName: 'FIXED' }] };
    expect(chosenLeaves(leaves, sent, new Set(['FIXED'])).map(pathOf)).toEqual([
      'organizationNames.[].legalBusinessName',
    ]);
  });
});

describe('the requests that carry them', () => {
  const leaves = chosenLeaves(valueLeaves(OrganizationIdentity), organizationIdentity(seededFaker(1)), new Set());
  const pairs = (requests: ReturnType<typeof boundaryRequests>) =>
    new Set(requests.flatMap((r) => r.map((p) => `${pathOf(p.leaf)}|${p.boundary.name}`)));

  it('full: every leaf gets every value of its type, narrow and wide values in separate requests', () => {
    const full = boundaryRequests(leaves, table, 'full', seededFaker(1));
    const got = pairs(full);
    for (const leaf of leaves)
      for (const b of table(leaf.type))
        expect(got.has(`${pathOf(leaf)}|${b.name}`), `${pathOf(leaf)} ${b.name}`).toBe(true);
    for (const r of full) {
      const text = r.filter((p) => p.leaf.type === 'TEXT').map((p) => isWide(p.boundary));
      expect(new Set(text).size, 'a request holds narrow or wide text, not both').toBe(1);
    }
    expect(full).toHaveLength(27);
  });

  it('default: one narrow and one wide request, the same for the same seed, every value of a wide identity', () => {
    const a = boundaryRequests(leaves, table, 'default', seededFaker(5));
    expect(a).toHaveLength(2);
    expect(pairs(a)).toEqual(pairs(boundaryRequests(leaves, table, 'default', seededFaker(5))));
    const values = new Set(a.flatMap((r) => r.map((p) => `${p.boundary.type}|${p.boundary.name}`)));
    const all = new Set(leaves.flatMap((l) => table(l.type).map((b) => `${b.type}|${b.name}`)));
    expect(values).toEqual(all);
    const seeds = new Set(
      [1, 2, 3, 4, 5, 6].map((s) =>
        [...pairs(boundaryRequests(leaves, table, 'default', seededFaker(s)))].sort().join(),
      ),
    );
    expect(seeds.size, 'other seeds place the values on other leaves').toBeGreaterThan(1);
  });

  it('a map leaf takes every value at once, each under its own key; a value its own schema refuses is left out', () => {
    const map: ValueLeaf = { path: ['auditLogMap', '{}'], type: 'TEXT', wire: false, schema: z.string() };
    const email: ValueLeaf = { path: ['email'], type: 'TEXT', wire: false, schema: z.email() };
    const [narrow] = boundaryRequests([map, email], table, 'default', seededFaker(1));
    expect(narrow!.filter((p) => p.leaf === map)).toHaveLength(table('TEXT').filter((b) => !isWide(b)).length);
    expect(narrow!.filter((p) => p.leaf === email)).toEqual([]);
    const sent = withBoundaries({ auditLogMap: { run: 'x' } }, narrow!) as { auditLogMap: Record<string, string> };
    expect(sent.auditLogMap['length-32']).toHaveLength(32);
    expect(sent.auditLogMap.run).toBe('x');
  });

  it('withBoundaries sets the first element of an array, creating what the base lacks', () => {
    const b: Boundary = { type: 'DATE', name: 'leap day', value: '2024-02-29' };
    const leaf = valueLeaves(OrganizationIdentity).find((l) => pathOf(l) === 'foundedDate.[].foundedDate')!;
    expect(withBoundaries({}, [{ leaf, boundary: b }])).toEqual({ foundedDate: [{ foundedDate: '2024-02-29' }] });
    const base = { foundedDate: [{ foundedDate: '2001-01-01' }, { foundedDate: '2002-02-02' }] };
    expect(withBoundaries(base, [{ leaf, boundary: b }])).toEqual({
      foundedDate: [{ foundedDate: '2024-02-29' }, { foundedDate: '2002-02-02' }],
    });
    expect(base.foundedDate[0]!.foundedDate).toBe('2001-01-01');
  });
});
