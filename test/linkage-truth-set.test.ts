/**
 * Bring your own ground truth (linkage/truth/): the Senzing demo set shipped in
 * examples/truth-sets/senzing-demo loads with the counts this test reads from the files itself,
 * runs through `npm run match-quality -- --truth --key` against the embedded reference (every
 * record posted, read back and removed, metrics with intervals), and the two Senzing clusterings
 * (actual and alternate keys) compared without a deployment list exactly the changed pairs an
 * enumeration of every record pair here finds. The plain format loads, and bad input is refused
 * with the file and line.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { TruthSetError } from '../linkage/truth/errors.js';
import { emailAddress, isoDate } from '../linkage/truth/senzing.js';
import { loadTruthSet, truthDataset } from '../linkage/truth/truth-set.js';
import { runCommand } from './support/command.js';

const SET = 'examples/truth-sets/senzing-demo';
const ACTUAL = `${SET}/actual_truthset_key.csv`;
const ALTERNATE = `${SET}/alternate_truthset_key.csv`;

/** The set as this test reads it, independently of the loader: record key -> RECORD_TYPE, and each key's clusters. */
function readSetHere() {
  const type = new Map<string, string>();
  for (const f of readdirSync(SET).filter((f) => f.endsWith('.jsonl')))
    for (const line of readFileSync(join(SET, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim())) {
      const r = JSON.parse(line) as { DATA_SOURCE: string; RECORD_ID: string; FEATURES: Array<Record<string, string>> };
      type.set(`${r.DATA_SOURCE}/${r.RECORD_ID}`, r.FEATURES.find((x) => x.RECORD_TYPE)!.RECORD_TYPE!);
    }
  const key = (file: string) => {
    const [head, ...rows] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    const cols = head!.split(',');
    return new Map(
      rows.map((row) => {
        const cells = row.split(',');
        const at = (name: string) => cells[cols.indexOf(name)]!;
        return [`${at('DATA_SOURCE')}/${at('RECORD_ID')}`, at('CLUSTER_ID')];
      }),
    );
  };
  return { type, actual: key(ACTUAL), alternate: key(ALTERNATE) };
}

const here = readSetHere();
const c2 = (n: number) => (n * (n - 1)) / 2;
const ofType = (t: string) => [...here.type].filter(([, x]) => x === t).map(([k]) => k);
/** True pairs among the records of a type: Σ C(n, 2) over the actual key's clusters. */
function truePairs(t: string): number {
  const sizes = new Map<string, number>();
  for (const k of ofType(t)) sizes.set(here.actual.get(k)!, (sizes.get(here.actual.get(k)!) ?? 0) + 1);
  return [...sizes.values()].reduce((s, n) => s + c2(n), 0);
}

describe('the Senzing demo set', () => {
  it('loads every record with its cluster, persons and organizations apart, and says what it cannot send', () => {
    const set = loadTruthSet([SET], ACTUAL);
    expect(set.format).toBe('senzing');
    expect(set.records.length).toBe(here.type.size);
    expect(set.records.filter((r) => r.kind === 'person').length).toBe(ofType('PERSON').length);
    expect(set.records.filter((r) => r.kind === 'organization').length).toBe(ofType('ORGANIZATION').length);
    for (const r of set.records) expect(r.cluster).toBe(here.actual.get(r.key));
    // Passports are features no identity member carries: counted, never sent.
    const passports = [...readFileSync(join(SET, 'customers.jsonl'), 'utf8').matchAll(/"PASSPORT_NUMBER"/g)].length;
    expect(set.notSent.PASSPORT_NUMBER).toBeGreaterThanOrEqual(passports);
    expect(set.records.every((r) => !('passport' in r.fields))).toBe(true);
    const persons = truthDataset(set, { person: 1 }, 7, 10)!;
    expect(persons.entities.length).toBe(new Set(ofType('PERSON').map((k) => here.actual.get(k))).size);
    expect(persons.searchSample.length).toBe(10);
    // Sampled records are posted last: they are searched first.
    expect(persons.records.slice(-10).map((r) => r.id)).toEqual(persons.searchSample);
  });

  it('the same set loaded from another place has the same digest; another key changes it', () => {
    const a = loadTruthSet([SET], ACTUAL);
    const b = loadTruthSet(
      readdirSync(SET)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => join(SET, f)),
      ACTUAL,
    );
    expect(b.sha256).toBe(a.sha256);
    expect(loadTruthSet([SET], ALTERNATE).sha256).not.toBe(a.sha256);
  });
});

describe('field mapping', () => {
  it('dates of birth in the forms a data source writes become yyyy-MM-dd; two-digit years fall in the 100 years up to today', () => {
    const today = new Date(2026, 0, 15);
    expect(isoDate('2/3/1961', today)).toBe('1961-02-03');
    expect(isoDate('2/3/61', today)).toBe('1961-02-03');
    expect(isoDate('2/3/19', today)).toBe('2019-02-03');
    expect(isoDate('2/3/27', today)).toBe('1927-02-03');
    expect(isoDate('1961-02-03', today)).toBe('1961-02-03');
    expect(isoDate('3-Feb-61', today)).toBe('1961-02-03');
    expect(isoDate('Feb 3 1961', today)).toBe('1961-02-03');
    expect(isoDate('1961', today)).toBe('');
    expect(isoDate('2/3/2030', today)).toBe('');
  });

  it('an e-mail in display-name form gives its address; a value that is no address is not sent', () => {
    expect(emailAddress('Ann Example <ann@example.com>')).toBe('ann@example.com');
    expect(emailAddress('"Ann Example" <ann@example.com>')).toBe('ann@example.com');
    expect(emailAddress('ann@example.com')).toBe('ann@example.com');
    expect(emailAddress('ann at example')).toBe('');
  });
});

describe('the plain format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'truth-plain-'));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const records = write(
    'records.jsonl',
    [
      { id: 'a1', kind: 'person', fields: { given: 'Ann', family: 'Example', dob: '1970-01-02' } },
      { id: 'a2', kind: 'person', fields: { given: 'Anne', family: 'Example', dob: '1970-01-02', phone: '' } },
      { id: 'o1', kind: 'organization', fields: { name: 'Example Clinic', postalCode: '10001' } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  const key = write('key.csv', 'id,cluster\na1,P1\na2,P1\no1,O1\n');

  it('loads records of any kind with their fields (blank ones left out)', () => {
    const set = loadTruthSet([records], key);
    expect(set.format).toBe('plain');
    expect(set.records.map((r) => [r.key, r.kind, r.cluster])).toEqual([
      ['a1', 'person', 'P1'],
      ['a2', 'person', 'P1'],
      ['o1', 'organization', 'O1'],
    ]);
    expect(set.records[1]!.fields).toEqual({ given: 'Anne', family: 'Example', dob: '1970-01-02' });
  });

  it('refuses, with the file and line, a field no identity has, a record without a cluster, a keyed record not among the records', () => {
    const typo = write('typo.jsonl', `${JSON.stringify({ id: 'a1', kind: 'person', fields: { givn: 'Ann' } })}\n`);
    expect(() => loadTruthSet([typo], key)).toThrow(TruthSetError);
    expect(() => loadTruthSet([typo], key)).toThrow(/typo\.jsonl, line 1: "givn" is not a field of a person/);
    const unkeyed = write('unkeyed.csv', 'id,cluster\na1,P1\na2,P1\n');
    expect(() => loadTruthSet([records], unkeyed)).toThrow(/line 3: record o1 has no cluster/);
    const extra = write('extra.csv', 'id,cluster\na1,P1\na2,P1\no1,O1\nz9,Z\n');
    expect(() => loadTruthSet([records], extra)).toThrow(/1 keyed record\(s\) are not among the records, e.g. z9/);
    const noCluster = write('nocluster.csv', 'id,group\na1,P1\n');
    expect(() => loadTruthSet([records], noCluster)).toThrow(/a key needs a record column .* and a cluster column/);
  });
});

describe('npm run match-quality -- --truth --key, against the embedded reference', () => {
  it('posts every record through the API, reads every link ID back, removes them all and reports metrics with intervals', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'truth-run-'));
    const r = await runCommand(
      'linkage/cli.ts',
      ['--truth', SET, '--key', ACTUAL, '--resamples', '200', '--quiet'],
      { CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_RUN_ID: 'truth', CONFORMANCE_SEED: '5' },
      180000,
    );
    expect(r.code, r.stderr + r.stdout).toBe(0);
    for (const [service, type] of [
      ['person', 'PERSON'],
      ['organization', 'ORGANIZATION'],
    ] as const) {
      const folder = join(reportDir, 'truth', 'match-quality', service);
      const results = JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8'));
      const n = ofType(type).length;
      expect(results.options.preset).toBe('truth-set');
      expect(results.options.truthSet.format).toBe('senzing');
      expect(results.analysis.sampleSizes.records).toBe(n);
      expect(results.analysis.sampleSizes.truePairs).toBe(truePairs(type));
      expect(results.failures).toMatchObject({ post: 0, read: 0 });
      expect(results.cleanup).toEqual({ deleted: n, alreadyGone: 0, failures: 0 });
      expect(results.linkIds.filter(Boolean).length).toBe(n);
      for (const m of ['pairwise.precision', 'pairwise.recall', 'pairwise.f1', 'b3.f'].map(
        (k) => results.analysis.metrics[k],
      )) {
        expect(m.low).toBeLessThanOrEqual(m.value + 1e-9);
        expect(m.high).toBeGreaterThanOrEqual(m.value - 1e-9);
      }
      const posted = gunzipSync(readFileSync(join(folder, 'records.jsonl.gz')))
        .toString()
        .trim()
        .split('\n');
      expect(posted.length).toBe(n);
      expect(r.stdout).toContain(`${service}: ${n} records, ${truePairs(type)} true pairs`);
    }
  }, 200000);
});

describe('two clusterings given as keys, no deployment: the Senzing actual and alternate keys', () => {
  /** Every record pair of a type enumerated: newly merged and newly split, true pairs and non-pairs. */
  function enumerated(type: string) {
    const keys = ofType(type);
    const out = { mergedTrue: 0, mergedNon: 0, splitTrue: 0, splitNon: 0 };
    for (let i = 0; i < keys.length; i++)
      for (let j = i + 1; j < keys.length; j++) {
        const [a, b] = [keys[i]!, keys[j]!];
        const before = here.actual.get(a) === here.actual.get(b);
        const after = here.alternate.get(a) === here.alternate.get(b);
        const same = here.actual.get(a) === here.actual.get(b);
        if (after && !before) same ? out.mergedTrue++ : out.mergedNon++;
        if (before && !after) same ? out.splitTrue++ : out.splitNon++;
      }
    return out;
  }

  it('lists exactly the pairs an enumeration of every record pair finds, in comparison.json and changed-pairs.csv', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'truth-keys-'));
    const r = await runCommand(
      'linkage/cli.ts',
      ['--truth', SET, '--key', ACTUAL, '--before-key', ACTUAL, '--after-key', ALTERNATE, '--resamples', '200'],
      { CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_RUN_ID: 'keys', CONFORMANCE_SEED: '5' },
      120000,
    );
    let anyChange = false;
    for (const [service, type] of [
      ['person', 'PERSON'],
      ['organization', 'ORGANIZATION'],
    ] as const) {
      const expected = enumerated(type);
      anyChange ||= Object.values(expected).some((n) => n > 0);
      const folder = join(reportDir, 'keys', 'match-quality', service);
      const comparison = JSON.parse(readFileSync(join(folder, 'comparison.json'), 'utf8'));
      expect(comparison.decisions.flips).toMatchObject({
        truePairsNewlyLinked: expected.mergedTrue,
        nonPairsNewlyLinked: expected.mergedNon,
        truePairsNewlyUnlinked: expected.splitTrue,
        nonPairsNewlyUnlinked: expected.splitNon,
      });
      const rows = parse(readFileSync(join(folder, 'changed-pairs.csv'), 'utf8'), { columns: true }) as Array<
        Record<string, string>
      >;
      const count = (change: string, truth: string) =>
        rows.filter((x) => x.change === change && x.ground_truth === truth).length;
      expect(count('newly merged', 'true pair')).toBe(expected.mergedTrue);
      expect(count('newly merged', 'non-pair')).toBe(expected.mergedNon);
      expect(count('newly split', 'true pair')).toBe(expected.splitTrue);
      expect(count('newly split', 'non-pair')).toBe(expected.splitNon);
      for (const x of rows) {
        // Each listed pair is what its row says: clusters as the keys give them, and both records as they would be posted.
        expect(x.cluster_a).toBe(here.actual.get(x.record_a!));
        expect(x.link_id_after_a === x.link_id_after_b).toBe(x.change === 'newly merged');
        expect(JSON.parse(x.identity_a!)).toBeTypeOf('object');
      }
      expect(r.stdout).toContain(
        `pairs newly merged: ${expected.mergedTrue} true pairs, ${expected.mergedNon} non-pairs; newly split: ${expected.splitTrue} true pairs, ${expected.splitNon} non-pairs`,
      );
    }
    // The alternate clustering differs from the truth somewhere, so the comparison has something to list.
    expect(anyChange).toBe(true);
    // Against the ground truth itself any change is a loss: the paired verdict flags it, exit 1.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/REGRESSION in .*pairwise\.f1/);
  }, 150000);
});
