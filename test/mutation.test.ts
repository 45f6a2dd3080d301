/**
 * `npm run mutation` (detection/mutation/): its pieces one by one (the interval, the sample, the
 * stable IDs, the verdict of a run, the triage file) and, so that the machinery cannot rot, a
 * measure of four fixed mutants end to end against the organization suite: one the suite kills at
 * a gating check, one that stops the reference from starting (a crash, killed), one it must let
 * through (a legal survivor) and one no clean run reaches (no coverage, found by the coverage pass;
 * equivalent), both triaged in detection/mutants.md. The full measure is a benchmark (docs/detection.md,
 * "Mutants").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { behaviourFiles, pickFiles, servicesOfFile } from '../detection/mutation/behaviour.js';
import type { RunResult } from '../detection/mutation/conformance-run.js';
import { instrument } from '../detection/mutation/instrument.js';
import { verdictOf } from '../detection/mutation/outcome.js';
import { sampleOf } from '../detection/mutation/sample.js';
import { scoreLine, wilsonInterval } from '../detection/mutation/score.js';
import { MUTANT_ID, cellsOf, readTriage, resolveTriage, unfoundQuotes } from '../detection/mutation/triage.js';
import { linesOf, runCommand } from './support/command.js';

const ROOT = join(import.meta.dirname, '..');
const seed = (file: string) => readFileSync(join(ROOT, 'specs', 'seeds', file), 'utf8');

describe('the score', () => {
  it('gives the 95 % Wilson score interval', () => {
    const [lo, hi] = wilsonInterval(45, 50);
    expect(lo).toBeCloseTo(0.7864, 4);
    expect(hi).toBeCloseTo(0.9565, 4);
    expect(wilsonInterval(0, 3)[1]).toBeCloseTo(0.5615, 4);
    expect(wilsonInterval(20, 20)).toEqual([expect.closeTo(0.8389, 4), 1]);
  });

  it('prints K of N, then K of M without the equivalent and legal survivors, with the interval', () => {
    expect(scoreLine({ killed: 360, measured: 420, excluded: 20 })).toBe(
      'mutation score: 360 of 420 killed (85.7 %); without equivalent and legal: 360 of 400 (90.0 %) [95 % interval 86.7-92.6 %]',
    );
  });
});

describe('the mutants', () => {
  it('are drawn by seed: the same seed the same sample, another seed another', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect(sampleOf(items, 10, 7)).toEqual(sampleOf(items, 10, 7));
    expect(new Set(sampleOf(items, 10, 7)).size).toBe(10);
    expect(sampleOf(items, 10, 8)).not.toEqual(sampleOf(items, 10, 7));
    expect([...sampleOf(items, 1000, 7)].sort((a, b) => a - b)).toEqual(items);
  });

  it('come from every behaviour file and none of the catalogues, each with a distinct stable ID', async () => {
    const files = behaviourFiles(ROOT);
    expect(files).toContain('reference/store.ts');
    expect(files.filter((f) => /^reference\/(faults|variants)\/|settings\.ts$|hooks\.ts$/.test(f))).toEqual([]);
    const { mutants } = await instrument(ROOT, files);
    expect(mutants.length).toBeGreaterThan(1000);
    expect(mutants.filter((m) => !MUTANT_ID.test(m.id))).toEqual([]);
    expect(new Set(mutants.map((m) => m.id)).size).toBe(mutants.length);
    // A settings reader is not behaviour: views.ts's groupedBySourceSetting has no mutant.
    expect(mutants.filter((m) => m.file === 'reference/views.ts' && /raw/.test(m.original))).toEqual([]);
  }, 60000);

  it('of a file run only the services it serves', () => {
    expect(servicesOfFile('reference/handlers/person.ts')).toEqual(['person']);
    expect(servicesOfFile('reference/store.ts')).toEqual(['organization', 'person', 'provider']);
    expect(pickFiles(ROOT, ['reference/matching'])).toContain('reference/matching/strings.ts');
    expect(() => pickFiles(ROOT, ['reference/faults'])).toThrow(/picks no behaviour file/);
  });
});

describe('a run', () => {
  const run = (r: Partial<RunResult>): RunResult => ({ code: 0, timedOut: false, ms: 1, output: '', ...r });
  const summary = {
    verdict: 'fail',
    gating: ['organization/x'],
    expectOnly: [],
    incomplete: [],
    failedRequirements: ['ORG-MERGE-EFFECT'],
    skipped: 3,
  };

  it.each([
    ['a pass survives', run({}), 'survived', undefined],
    ['a gating failure kills', run({ code: 1, summary }), 'killed', 'gate'],
    [
      'a run without a report is a crash, killed',
      run({ code: 1, output: 'Error: boom\n    at x (y.ts:1)' }),
      'killed',
      'crash',
    ],
    ['a failed preflight kills', run({ code: 3 }), 'killed', 'preflight'],
    ['checks that could not judge kill', run({ code: 5 }), 'killed', 'incomplete'],
    ['a run past its time limit is a timeout', run({ code: null, timedOut: true }), 'timeout', undefined],
  ])('%s', (_name, r, status, kind) => {
    const v = verdictOf(r, 60000);
    expect(v.status).toBe(status);
    if (kind) expect(v).toMatchObject({ kind });
  });

  it('names the failed requirements and the first gating check, or the crash', () => {
    expect(verdictOf(run({ code: 1, summary }), 1).reason).toBe('gate FAIL: ORG-MERGE-EFFECT (organization/x)');
    expect(verdictOf(run({ code: 1, output: 'Error: boom\n    at x (y.ts:1)' }), 1).reason).toContain('Error: boom');
    // A plain Error above the command's own last words is the message, as a TypeError would be.
    const output = 'Error: boom\n    at x (y.ts:1)\nconformance: the run ended (exit 1) without writing summary.json';
    expect(verdictOf(run({ code: 1, output }), 1).reason).toMatch(/without a report: Error: boom$/);
  });
});

describe('the triage file (detection/mutants.md)', () => {
  it('reads a row per mutant with its class, and every legal row quotes the seeds word for word', () => {
    const triage = readTriage(ROOT);
    expect(triage.problems).toEqual([]);
    expect(triage.entries.size).toBeGreaterThan(0);
    for (const e of triage.entries.values()) expect(['equivalent', 'legal', 'gap']).toContain(e.class);
  });

  it('refuses a legal row whose quote is not in the seed it cites, or that quotes none', () => {
    const real = 'organization-identity-api.md, Resources, Search result: "identityGroupedBySource | array | no"';
    expect(unfoundQuotes(real, seed)).toEqual([]);
    expect(unfoundQuotes('organization-identity-api.md, Errors: "any reply is fine"', seed)).toEqual([
      '"any reply is fine" is not in organization-identity-api.md',
    ]);
    expect(unfoundQuotes('the seeds leave it open', seed)).toHaveLength(1);
  });

  it('finds a row whose code moved by file, mutator and digest, pairing rows of one shape in order', () => {
    const row = (id: string, line: number) => ({ id, class: 'legal' as const, why: 'x', line });
    const triage = {
      entries: new Map([
        ['reference/a.ts:10:5:StringLiteral:aaaaaa', row('reference/a.ts:10:5:StringLiteral:aaaaaa', 1)],
        ['reference/a.ts:20:5:StringLiteral:aaaaaa', row('reference/a.ts:20:5:StringLiteral:aaaaaa', 2)],
        ['reference/a.ts:30:1:BlockStatement:bbbbbb', row('reference/a.ts:30:1:BlockStatement:bbbbbb', 3)],
      ]),
      problems: [],
    };
    const now = [
      'reference/a.ts:12:5:StringLiteral:aaaaaa',
      'reference/a.ts:22:5:StringLiteral:aaaaaa',
      'reference/a.ts:40:1:BlockStatement:cccccc',
    ];
    const resolved = resolveTriage(
      triage,
      now.map((id) => ({ id, file: 'reference/a.ts' })),
    );
    expect(resolved.entries.get(now[0]!)?.line).toBe(1);
    expect(resolved.entries.get(now[1]!)?.line).toBe(2);
    expect(resolved.entries.has(now[2]!)).toBe(false);
    expect(resolved.notes).toEqual([
      '2 rows found their mutant by file, mutator and digest (its place moved)',
      'detection/mutants.md:3: reference/a.ts:30:1:BlockStatement:bbbbbb names no mutant of the current code (stale)',
    ]);
  });

  it('splits table cells on pipes that are not escaped', () => {
    expect(cellsOf('| a | legal | `x \\|\\| y` | "b \\| c" |')).toEqual(['a', 'legal', '`x || y`', '"b | c"']);
  });
});

/** The four fixed mutants of the end-to-end measure, with what the measure must find. */
const FIXED = [
  ['reference/store.ts:126:23:BlockStatement:09f6a3', 'killed', /gate FAIL: ORG-/],
  // startReference throws: vitest prints "Error: ..." (with a warm module cache, a TypeError of its source map).
  [
    'reference/server.ts:164:7:ConditionalExpression:ffb9c5',
    'killed',
    /the run ended \(exit 1\) without a report: .*Error/,
  ],
  ['reference/views.ts:29:7:ConditionalExpression:241d5d', 'survived', /gate PASS/],
  ['reference/store.ts:133:12:MethodExpression:7b2358', 'no-coverage', /no clean run/],
] as const;

/** A sandbox of its own (a benchmark of the same checkout may be running), and the fixed mutants. */
const SELF_TEST = ['--sandbox', 'self-test', '--mutant', ...FIXED.map((f) => f[0])];

describe('npm run mutation, end to end', () => {
  it('kills a mutant the suite catches and one that stops the reference, keeps a legal one and one no run reaches, and scores them', async () => {
    const r = await runCommand(
      'detection/mutation/cli.ts',
      [
        ...['--files', 'reference/store.ts,reference/server.ts,reference/views.ts', '--services', 'organization'],
        ...SELF_TEST,
      ],
      {},
      400000,
    );
    const progress = linesOf(r.stderr).filter((l) => /^\[\d\/4\]/.test(l));
    expect(progress, r.stderr).toHaveLength(4);
    for (const [id, status, reason] of FIXED) {
      const line = progress.find((l) => l.includes(` ${id} `))!;
      expect(line, `${id}\n${r.stderr}`).toMatch(new RegExp(`^\\[\\d/4\\] ${status}`));
      expect(line).toMatch(reason);
    }
    const out = linesOf(r.stdout);
    // Every survivor printed with its triage (detection/mutants.md holds both fixed survivors).
    expect(out).toContainEqual(expect.stringMatching(/^survivors, legal \(1\):/));
    expect(out).toContainEqual(expect.stringContaining(FIXED[2][0]));
    expect(out).toContainEqual(expect.stringMatching(/^survivors, equivalent \(1\):/));
    expect(out).toContainEqual(expect.stringContaining(`${FIXED[3][0]} (no coverage)`));
    expect(out.at(-1)).toBe(
      'mutation score: 2 of 4 killed (50.0 %); without equivalent and legal: 2 of 2 (100.0 %) [95 % interval 34.2-100.0 %]',
    );
    expect(r.code, r.stderr).toBe(0);
  }, 400000);
});
