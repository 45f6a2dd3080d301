/**
 * Validators kept on disk (harness/validator-cache.ts) give the verdicts and errors of validators
 * compiled in memory, for every reply schema of every service; a stored validator is loaded
 * without compiling; a damaged file or a folder that cannot be written changes nothing but speed.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VALIDATOR_OPTIONS_KEY, jsonSchemaOf, replyAjv } from '../harness/contract.js';
import { ValidatorCache } from '../harness/validator-cache.js';
import { organizationIdentity } from '../generators/organization.js';
import { personIdentity } from '../generators/person.js';
import { seededFaker } from '../generators/seed.js';
import { SERVICES, serviceNames } from '../specs/services.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'validator-cache-'));
const replySchemas = serviceNames().flatMap((service) =>
  SERVICES[service].operations.map((op) => ({ name: `${service}.${op.name}`, schema: jsonSchemaOf(op.reply) })),
);

/** Values that pass and fail a reply schema at several depths: arbitrary JSON, arbitrary JSON under each member, identities with and without broken leaves. */
function samples(schema: Record<string, unknown>, seed: number): unknown[] {
  const faker = seededFaker(seed);
  const members = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const anything = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 10, seed });
  const identities = [organizationIdentity(faker), personIdentity(faker)];
  const broken = identities.map((i) => ({
    ...i,
    foundedDate: [{ foundedDate: '2020/01/01' }],
    birthDate: 19800101,
    names: 'not a list',
  }));
  return [
    {},
    ...anything,
    ...members.flatMap((m) => [
      ...anything.slice(0, 4).map((v) => ({ [m]: v })),
      ...[...identities, ...broken].map((i) => ({ [m]: i })),
      { [m]: [{ identity: identities[0] }, { identity: broken[1] }] },
    ]),
    ...[...identities, ...broken].map((identity) => ({
      identity,
      linkId: 'L1',
      searchResults: [{ matchScore: 0.9, sameIdentity: 'Y', identity }],
    })),
  ];
}

afterEach(() => vi.restoreAllMocks());

describe('validators kept on disk', () => {
  it('give the same verdicts and errors as validators compiled in memory, for every reply schema', () => {
    const dir = freshDir();
    const writer = new ValidatorCache(replyAjv(), dir, VALIDATOR_OPTIONS_KEY);
    for (const { schema } of replySchemas) writer.validator(schema);
    const readerAjv = replyAjv();
    const compile = vi.spyOn(readerAjv, 'compile');
    const reader = new ValidatorCache(readerAjv, dir, VALIDATOR_OPTIONS_KEY);
    const inMemory = replyAjv();
    let passed = 0;
    let failed = 0;
    replySchemas.forEach(({ name, schema }, i) => {
      const stored = reader.validator(schema);
      const compiled = inMemory.compile(schema);
      for (const value of samples(schema, i + 1)) {
        const verdict = compiled(value);
        expect(stored(value), `${name} ${JSON.stringify(value).slice(0, 200)}`).toBe(verdict);
        expect(stored.errors ?? null, name).toEqual(compiled.errors ?? null);
        if (verdict) passed++;
        else failed++;
      }
    });
    expect(compile).not.toHaveBeenCalled();
    expect(readdirSync(dir).filter((f) => f.endsWith('.cjs'))).toHaveLength(
      new Set(replySchemas.map((s) => JSON.stringify(s.schema))).size,
    );
    // Both verdicts occur often, so equal verdicts are not equal by accident of always passing or always failing.
    expect(passed).toBeGreaterThan(100);
    expect(failed).toBeGreaterThan(1000);
  });

  it('compiles and stores again a file that does not load', () => {
    const dir = freshDir();
    const { schema } = replySchemas[0]!;
    new ValidatorCache(replyAjv(), dir, VALIDATOR_OPTIONS_KEY).validator(schema);
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), '"use strict";module.exports = validate10; const broken = ;');
    const ajv = replyAjv();
    const compile = vi.spyOn(ajv, 'compile');
    const validate = new ValidatorCache(ajv, dir, VALIDATOR_OPTIONS_KEY).validator(schema);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(validate({})).toBe(replyAjv().compile(schema)({}));
    const reader = replyAjv();
    const again = vi.spyOn(reader, 'compile');
    new ValidatorCache(reader, dir, VALIDATOR_OPTIONS_KEY).validator(schema);
    expect(again).not.toHaveBeenCalled();
  });

  it('compiles in memory when the folder cannot be made', () => {
    const blocker = join(freshDir(), 'a-file');
    writeFileSync(blocker, '');
    const { schema } = replySchemas.find((s) => s.name === 'organization.demographicsSearch')!;
    const validate = new ValidatorCache(replyAjv(), join(blocker, 'validators'), VALIDATOR_OPTIONS_KEY).validator(
      schema,
    );
    expect(validate({ searchResults: [{ matchScore: 0.5, sameIdentity: 'U' }] })).toBe(true);
    expect(validate({ searchResults: [{ matchScore: 'high' }] })).toBe(false);
  });

  it('never hands a schema the validator of another schema or of other options', () => {
    const dir = freshDir();
    const a = { type: 'object', properties: { n: { type: 'number' } } };
    const b = { type: 'object', properties: { n: { type: 'string' } } };
    new ValidatorCache(replyAjv(), dir, VALIDATOR_OPTIONS_KEY).validator(a);
    expect(new ValidatorCache(replyAjv(), dir, VALIDATOR_OPTIONS_KEY).validator(b)({ n: 'x' })).toBe(true);
    const otherOptions = replyAjv();
    const compile = vi.spyOn(otherOptions, 'compile');
    new ValidatorCache(otherOptions, dir, `${VALIDATOR_OPTIONS_KEY} other`).validator(a);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(readdirSync(dir)).toHaveLength(3);
  });
});
