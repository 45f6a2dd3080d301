/**
 * Measurement: how often the model-based walks find each sequence fault of the reference
 * (reference/faults/sequence-faults.ts, the faults a walk can meet), over run seeds, and whether the clean reference
 * passes for the same seeds. Each run is `npm run conformance` on the walk files, exactly as a user would replay it
 * (CONFORMANCE_SEED=<seed>), one at a time.
 *
 * A fault counts as found when its service's walk check fails citing the fault's requirement; a failure citing another
 * requirement is listed apart ("other").
 *
 * The variants that take the other legitimate choice of an open outcome (OPEN_VARIANTS) run at every seed too: each
 * must pass. With --drawn, each run seed also runs the walks against the drawn deployment of that seed
 * (detection/drawn.ts: one option of every open choice, lags, throttling and other users writing): a `fail` verdict
 * there is a false positive; a check that could not judge (the deployment never held still) is counted apart.
 *
 * Usage: npm run bench:walks -- [--seeds 1-10] [--faults a,b | none] [--walks N --steps M] [--variants a,b |
 * --no-variants] [--drawn] [--json file] (no --walks/--steps: the default budget of a run against the embedded
 * reference; --help lists the options).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drawnSpecs } from '../detection/drawn.js';
import { OPEN_OUTCOME_VARIANTS } from '../detection/sample.js';
import { mergePatches, patchOf, plannedVariants } from '../detection/variants.js';
import { SEQUENCE_FAULTS } from '../reference/faults/sequence-faults.js';
import { STATE_FAULTS } from '../reference/faults/state-faults.js';
import { CATEGORY_FAULTS } from '../reference/faults/category-faults.js';
import { command, parseArguments, usageError } from '../run/command.js';
import { runSuite } from '../test/support/run-suite.js';
import { walkCheck } from '../test/support/walk-checks.js';

const FILES = {
  organization: 'scenarios/organization/walks.test.ts',
  person: 'scenarios/person/walks.test.ts',
  provider: 'scenarios/provider/walks.test.ts',
} as const;
type Service = keyof typeof FILES;

/**
 * Faults a walk can meet: the sequence faults whose operations a walk sends (not the generated-bad-input one), and the
 * faults in outcomes the whole-state oracle judges after every step.
 */
export const WALK_FAULTS = [...SEQUENCE_FAULTS.filter((f) => !f.acceptInvalid), ...STATE_FAULTS, ...CATEGORY_FAULTS];

/**
 * Variants taking the other legitimate choice of an outcome the state tables leave open: the walks must pass each at
 * every seed.
 */
const OPEN_VARIANTS = [
  ...OPEN_OUTCOME_VARIANTS,
  'stale-links=self',
  'stale-links=any',
  'restore-new-identity',
  'restore-joins-other',
  'soft-deleted-visible',
  'restore-after-delete-succeeds',
];

const program = command({
  name: 'bench:walks',
  summary:
    'How often the walks find each walk fault of the reference over run seeds, whether the clean reference ' +
    'passes at the same seeds, and whether the open-outcome variants pass at every seed.',
  exitCodes: { 0: 'measured (whatever the rates)', 2: 'bad arguments' },
  examples: [
    'npm run bench:walks -- --seeds 1-10',
    'npm run bench:walks -- --seeds 1-3 --faults idquery-echo-retired --no-variants',
    'npm run bench:walks -- --seeds 1-10 --faults none --variants retired-follow-survivor',
  ],
})
  .option('--seeds <seeds>', 'run seeds: a-b or a,b,c', '1-10')
  .option('--faults <names>', 'comma list of walk faults to measure ("none": no fault run; default: every walk fault)')
  .option('--walks <n>', 'walks per service (CONFORMANCE_WALKS; default: the run default)')
  .option('--steps <n>', 'steps per walk (CONFORMANCE_WALK_STEPS; default: the run default)')
  .option('--variants <names>', 'comma list of open-outcome variants to run at every seed (default: all of them)')
  .option('--no-variants', 'no variant run')
  .option(
    '--drawn',
    'also run the walks, at each run seed, against the drawn deployment of that seed (REFERENCE_VARIANTS=drawn=<seed>)',
  )
  .option('--json <file>', 'also write the figures as JSON');
parseArguments(program);
const opts = program.opts<{
  seeds: string;
  faults?: string;
  walks?: string;
  steps?: string;
  variants: string | boolean;
  drawn?: boolean;
  json?: string;
}>();

function seedList(text: string): number[] {
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(text))
    usageError(program, `--seeds: expected a-b or a,b,c, got ${JSON.stringify(text)}`);
  return text.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
  });
}

/** The faults measured: --faults a,b (default: every walk fault; "none": none). */
const measured = opts.faults === 'none' ? [] : (opts.faults?.split(',') ?? WALK_FAULTS.map((f) => f.name));
const unknown = measured.filter((name) => !WALK_FAULTS.some((f) => f.name === name));
if (unknown.length) usageError(program, `--faults: not a walk fault: ${unknown.join(', ')}`);

/**
 * Runs of one seed: one fault per service at a time (faults act on their own service only), then the clean reference.
 */
function bundles(): Array<Partial<Record<Service, string>>> {
  const per = (s: Service) =>
    WALK_FAULTS.filter((f) => f.service === s && measured.includes(f.name)).map((f) => f.name);
  const lists = { organization: per('organization'), person: per('person'), provider: per('provider') };
  const n = Math.max(...Object.values(lists).map((l) => l.length));
  return Array.from({ length: n }, (_, i) =>
    Object.fromEntries(
      Object.entries(lists)
        .filter(([, l]) => l[i])
        .map(([s, l]) => [s, l[i]]),
    ),
  );
}

const seeds = seedList(opts.seeds);
const budget = {
  ...(opts.walks ? { CONFORMANCE_WALKS: opts.walks } : {}),
  ...(opts.steps ? { CONFORMANCE_WALK_STEPS: opts.steps } : {}),
};
const found = new Map<string, { right: number[]; other: number[]; missed: number[] }>(
  WALK_FAULTS.map((f) => [f.name, { right: [], other: [], missed: [] }]),
);
const clean: Array<{ seed: number; service: string; verdict: string; ms: number; walkMs?: number }> = [];
/**
 * Time of a service's walks: the sum over its walk checks (the tours check and each check of generated walks prints its
 * line).
 */
const walkMs = (stdout: string, service: string) => {
  const times = [...stdout.matchAll(new RegExp(`\\[walks\\] ${service}: .* walks run in (\\d+) ms`, 'g'))].map((m) =>
    Number(m[1]),
  );
  return times.length ? times.reduce((a, b) => a + b, 0) : NaN;
};

for (const seed of seeds) {
  for (const bundle of [...bundles(), {}]) {
    const services = (Object.keys(bundle).length ? Object.keys(bundle) : Object.keys(FILES)) as Service[];
    const faults = Object.values(bundle);
    const run = await runSuite(
      services.map((s) => FILES[s]),
      // Verbose: the walk time is read from the run's `[walks]` lines.
      {
        ...budget,
        CONFORMANCE_SEED: String(seed),
        CONFORMANCE_VERBOSE: '1',
        ...(faults.length ? { REFERENCE_FAULTS: faults.join(',') } : {}),
      },
      600000,
    );
    for (const service of services) {
      const c = walkCheck(run, service);
      const fault = bundle[service];
      if (!fault) {
        clean.push({
          seed,
          service,
          verdict: c?.verdict ?? `no result (exit ${run.code})`,
          ms: c?.durationMs ?? NaN,
          walkMs: walkMs(run.stdout, service),
        });
        console.log(
          `seed ${seed} clean ${service}: ${c?.verdict} (${c?.durationMs} ` +
            `ms)${c?.verdict === 'pass' ? '' : `\n${c?.message ?? c?.note ?? run.stdout.slice(-2000)}`}`,
        );
        continue;
      }
      const def = WALK_FAULTS.find((f) => f.name === fault)!;
      const tally = found.get(fault)!;
      const right = c?.verdict === 'fail' && c.failedRequirements.includes(def.requirement);
      (right ? tally.right : c?.verdict === 'fail' ? tally.other : tally.missed).push(seed);
      console.log(
        `seed ${seed} ${fault}: ` +
          `${right ? 'found' : c?.verdict === 'fail' ? `failed at ${c.failedRequirements.join(',')}` : `missed (${c?.verdict})`} ` +
          `(${c?.durationMs} ms)`,
      );
    }
  }
}

const variants =
  opts.variants === false ? [] : typeof opts.variants === 'string' ? opts.variants.split(',') : OPEN_VARIANTS;
const variantRuns = new Map<
  string,
  { pass: number[]; fail: Array<{ seed: number; service: string; message: string }> }
>(variants.map((v) => [v, { pass: [], fail: [] }]));
for (const seed of seeds) {
  for (const variant of variants) {
    // The profile a user of such a deployment would set (detection applies the same).
    const profile = join(mkdtempSync(join(tmpdir(), 'cf-walk-variant-')), 'profile.json');
    writeFileSync(profile, JSON.stringify(mergePatches(plannedVariants([variant]).map(patchOf))));
    const run = await runSuite(
      Object.values(FILES),
      { ...budget, CONFORMANCE_SEED: String(seed), REFERENCE_VARIANTS: variant, CONFORMANCE_PROFILE: profile },
      600000,
    );
    const failing = (run.summary?.checks ?? []).filter((c) => c.verdict !== 'pass');
    const tally = variantRuns.get(variant)!;
    if (run.summary && !failing.length) tally.pass.push(seed);
    for (const c of failing)
      tally.fail.push({ seed, service: c.service, message: (c.message ?? c.note ?? '').slice(0, 1500) });
    if (!run.summary) tally.fail.push({ seed, service: '-', message: run.stdout.slice(-1500) });
    console.log(`seed ${seed} variant ${variant}: ${failing.length || !run.summary ? 'FAILED' : 'passed'}`);
    for (const c of failing) console.log(`  ${c.service} ${c.verdict}: ${(c.message ?? c.note ?? '').slice(0, 1500)}`);
  }
}

console.log(
  `\nbudget: ${budget.CONFORMANCE_WALKS ?? 'default'} walks x ${budget.CONFORMANCE_WALK_STEPS ?? 'default'} ` +
    `steps; seeds ${seeds.join(',')}`,
);
console.log('| fault | service | requirement | found | other requirement | missed seeds |\n|---|---|---|---|---|---|');
for (const f of WALK_FAULTS.filter((x) => measured.includes(x.name))) {
  const t = found.get(f.name)!;
  console.log(
    `| ${f.name} | ${f.service} | ${f.requirement} | ${t.right.length}/${seeds.length} | ` +
      `${t.other.length ? t.other.join(',') : '-'} | ${t.missed.length ? t.missed.join(',') : '-'} |`,
  );
}
for (const service of Object.keys(FILES)) {
  const rows = clean.filter((c) => c.service === service);
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  const walk = rows.map((r) => r.walkMs ?? NaN).sort((a, b) => a - b);
  console.log(
    `clean ${service}: ${rows.filter((r) => r.verdict === 'pass').length}/${rows.length} pass; check duration ` +
      `median ${ms[Math.floor(ms.length / 2)]} ms (max ${ms.at(-1)}), walks median ` +
      `${walk[Math.floor(walk.length / 2)]} ms`,
  );
}
if (variants.length) {
  console.log('| variant | passed at seeds |\n|---|---|');
  for (const [v, t] of variantRuns)
    console.log(
      `| ${v} | ${t.pass.length}/${seeds.length}${t.fail.length ? ` (failed at ${[...new Set(t.fail.map((f) => f.seed))].join(',')})` : ''} |`,
    );
}
/** Walks against the drawn deployment of each run seed: verdicts other than pass, by kind. */
const drawn: Array<{ seed: number; specs: string[]; failed: string[]; notJudged: string[] }> = [];
if (opts.drawn)
  for (const seed of seeds) {
    const { specs } = drawnSpecs([seed])[0]!;
    const profile = join(mkdtempSync(join(tmpdir(), 'cf-walk-drawn-')), 'profile.json');
    writeFileSync(profile, JSON.stringify(mergePatches(plannedVariants(specs).map(patchOf))));
    const run = await runSuite(
      Object.values(FILES),
      { ...budget, CONFORMANCE_SEED: String(seed), REFERENCE_VARIANTS: specs.join(','), CONFORMANCE_PROFILE: profile },
      600000,
    );
    const checks = run.summary?.checks ?? [];
    const line = (c: (typeof checks)[number]) =>
      `${c.service} ${c.verdict}: ${(c.message ?? c.note ?? '').slice(0, 1500)}`;
    const row = {
      seed,
      specs,
      failed: run.summary
        ? checks.filter((c) => c.verdict === 'fail').map(line)
        : [`no summary: ${run.stdout.slice(-1500)}`],
      notJudged: checks.filter((c) => c.verdict !== 'pass' && c.verdict !== 'fail').map(line),
    };
    drawn.push(row);
    console.log(
      `seed ${seed} drawn (${specs.join(',')}): ` +
        `${row.failed.length ? 'FAILED' : 'passed'}${row.notJudged.length ? `, ${row.notJudged.length} not judged` : ''}`,
    );
    for (const l of [...row.failed, ...row.notJudged]) console.log(`  ${l}`);
  }
if (opts.drawn)
  console.log(
    `drawn deployments: ${drawn.filter((d) => !d.failed.length).length}/${drawn.length} without a failing walk check; could not judge at seeds ${
      drawn
        .filter((d) => d.notJudged.length)
        .map((d) => d.seed)
        .join(',') || 'none'
    }`,
  );
const out = opts.json;
if (out)
  writeFileSync(
    out,
    JSON.stringify(
      { budget, seeds, faults: Object.fromEntries(found), clean, variants: Object.fromEntries(variantRuns), drawn },
      null,
      2,
    ),
  );
