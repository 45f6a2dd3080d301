/**
 * `npm run detection -- [--only a,b] [--variants-only] [--drawn-only] [--no-variants] [--drawn N | --drawn-seeds a-b]
 * [--seed N] [--concurrency N] [--list] [--json file]`: runs the conformance suite against the embedded reference
 * cleanly, once per catalogued fault, once per catalogued legitimate variant and once per drawn deployment
 * (reference/variants/drawn.ts, seeds 1-50 by default), and prints the detection table (fault, requirement, the checks
 * that caught it), the variant table (variant, passed, its false positives with check ID, failed requirements and
 * message), the drawn deployments (seed, passed, the draw, each false positive with its replay line), and the scores
 * side by side: faults caught / faults, variants passed / variants, drawn deployments passed / drawn.
 *
 * `--only` takes fault names and variant specs (`name` or `name=value`) and runs no drawn deployment unless --drawn or
 * --drawn-seeds asks for some; `--variants-only` runs the clean run, the variants and the drawn deployments, no fault;
 * `--drawn-only` the clean run and the drawn deployments; `--bundle-size 1` runs every variant on its own reference;
 * `--seed N` seeds the generated data of every run (as CONFORMANCE_SEED does). Exit code 0 when every fault run is
 * caught, every variant and drawn deployment passed and the clean run has no failure; 1 otherwise; 2 for bad arguments.
 * See docs/detection.md.
 */
import { writeFileSync } from 'node:fs';
import { FAULT_LIST, applied } from '../reference/faults/catalogue.js';
import { VARIANT_LIST } from '../reference/variants/catalogue.js';
import { DIMENSIONS } from '../reference/variants/drawn.js';
import { ReferenceSettingError, parseVariantList } from '../reference/variants/registry.js';
import { plainOutput } from '../report/progress.js';
import { command, integer, parseArguments, usageError } from '../run/command.js';
import { detect } from './runner.js';
import { DEFAULT_DRAWN, type DrawnDeployment, drawnSpecs, parseDrawnSeeds } from './drawn.js';
import { type PlannedVariant, plannedVariants } from './variants.js';

const program = command({
  name: 'detection',
  summary:
    'Runs the conformance suite against the embedded reference cleanly, once per catalogued fault and once per ' +
    'catalogued legitimate variant, and prints which checks caught each fault, which variants passed, the two ' +
    'scores and any false positive (docs/detection.md).',
  exitCodes: {
    0: 'every fault caught, every variant and drawn deployment passed and no failure on the clean reference',
    1: 'a fault was not caught, a variant or drawn deployment failed a check, or the clean run failed a check',
    2: 'bad arguments',
  },
  examples: [
    'npm run detection',
    'npm run detection -- --list',
    'npm run detection -- --only merge-no-unify,search-lag=1500 --json detection.json',
    'npm run detection -- --variants-only --seed 3',
    'npm run detection -- --drawn-only --drawn-seeds 51-60',
  ],
})
  .option('--only <names>', 'comma list of faults and variants (name or name=value) to run (default: all)')
  .option('--variants-only', 'the clean run and the variants, no fault')
  .option('--drawn-only', 'the clean run and the drawn deployments, no fault and no named variant')
  .option('--no-variants', 'no variant run and no drawn deployment')
  .option(
    '--drawn <n>',
    `drawn deployments to run, seeds 1 to n (0: none; default ${DEFAULT_DRAWN}, none with --only)`,
    integer(0, 10000),
  )
  .option('--drawn-seeds <seeds>', 'the drawn deployments to run, by seed: a-b or a,b,c')
  .option('--seed <n>', 'seed of the generated data of every run (as CONFORMANCE_SEED)', integer(0, 2 ** 31 - 1))
  .option('--bundle-size <n>', 'variants sharing one run, 1-50 (1: every variant alone)', integer(1, 50))
  .option('--concurrency <n>', 'workers, 1-16', integer(1, 16), 2)
  .option('--list', 'list the faults and the variants and exit')
  .option('--json <file>', 'also write the results as JSON');
parseArguments(program);
const opts = program.opts<{
  only?: string;
  variantsOnly?: boolean;
  drawnOnly?: boolean;
  variants: boolean;
  drawn?: number;
  drawnSeeds?: string;
  seed?: number;
  bundleSize?: number;
  concurrency: number;
  list?: boolean;
  json?: string;
}>();
const noVariants = opts.variants === false;
if (opts.list) {
  for (const f of FAULT_LIST)
    console.log(`fault    ${f.name.padEnd(34)} ${f.requirement.padEnd(28)} ${applied(f).padEnd(40)} ${f.description}`);
  for (const v of VARIANT_LIST) {
    const value = v.parameter ? `=${v.parameter.default}` : '';
    const notes = [
      v.parameter ? `value: ${v.parameter.describe}` : '',
      v.services ? `services: ${v.services.join(', ')}` : '',
      v.judge === 'no-fail' ? 'passes with zero fail verdicts (errors allowed)' : '',
      v.profile ? `profile: ${JSON.stringify(v.profile(v.parameter?.parse(v.parameter.default)))}` : '',
    ].filter(Boolean);
    console.log(
      `variant  ${(v.name + value).padEnd(34)} ${v.description}${notes.length ? ` [${notes.join('; ')}]` : ''}`,
    );
    for (const s of v.seeds) console.log(`         ${''.padEnd(34)} ${s.file}, ${s.section}: "${s.quote}"`);
  }
  // What a drawn deployment chooses (reference/variants/drawn.ts); each variant's seed sentences are listed above.
  for (const dim of DIMENSIONS)
    console.log(`drawn    ${dim.what.padEnd(34)} ${dim.variants.join(' | ')} | the reference's own`);
  console.log(`${FAULT_LIST.length} faults, ${VARIANT_LIST.length} variants, ${DIMENSIONS.length} drawn dimensions`);
  process.exit(0);
}
const fail = (message: string): never => usageError(program, message);
const { concurrency, seed, bundleSize } = opts;
if (opts.variantsOnly && noVariants) fail('--variants-only and --no-variants exclude each other');
if (opts.drawnOnly && (opts.variantsOnly || noVariants || opts.only))
  fail('--drawn-only excludes --variants-only, --no-variants and --only');
if (opts.drawn !== undefined && opts.drawnSeeds !== undefined) fail('--drawn and --drawn-seeds exclude each other');
let drawnSeeds: number[] = [];
try {
  if (opts.drawnSeeds !== undefined) drawnSeeds = parseDrawnSeeds(opts.drawnSeeds);
} catch (e) {
  fail(`--drawn-seeds: ${(e as Error).message}`);
}
// Drawn deployments: the seeds asked for; else 1..n; else 1..DEFAULT_DRAWN unless --only or --no-variants.
const drawnDefault = opts.only || noVariants ? 0 : DEFAULT_DRAWN;
const drawn: DrawnDeployment[] = noVariants
  ? []
  : drawnSpecs(
      opts.drawnSeeds !== undefined ? drawnSeeds : Array.from({ length: opts.drawn ?? drawnDefault }, (_, i) => i + 1),
    );

// --only: fault names and variant specs; without it, every fault and every variant.
const named = opts.only ? parseVariantList(opts.only) : undefined;
const isFault = (n: string) => FAULT_LIST.some((f) => f.name === n);
const isVariant = (n: string) => VARIANT_LIST.some((v) => v.name === n);
const unknown = named?.filter((s) => !isFault(s.name) && !isVariant(s.name)).map((s) => s.name) ?? [];
if (unknown.length) fail(`--only: unknown fault(s) or variant(s) ${unknown.join(', ')} (npm run detection -- --list)`);
const onlyFaults =
  opts.variantsOnly || opts.drawnOnly
    ? []
    : named
      ? named.filter((s) => s.value === undefined && isFault(s.name)).map((s) => s.name)
      : undefined;
let variants: PlannedVariant[] = [];
try {
  const specs = named
    ? named.filter((s) => isVariant(s.name)).map((s) => (s.value === undefined ? s.name : `${s.name}=${s.value}`))
    : undefined;
  variants = noVariants || opts.drawnOnly ? [] : plannedVariants(specs);
} catch (e) {
  if (e instanceof ReferenceSettingError) fail(`--only: ${e.message}`);
  throw e;
}

const totalFaults = onlyFaults?.length ?? FAULT_LIST.length;
let done = 0;
let variantsDone = 0;
console.log(
  `Detection${seed !== undefined ? ` (seed ${seed})` : ''}: clean run, then ${totalFaults} fault runs, ` +
    `${variants.length} variant runs and ${drawn.length} drawn deployments (${concurrency} workers)...`,
);
// One rewritten line on a terminal; plain lines at every tenth otherwise (a CI log, a file).
const plain = plainOutput(process.stderr);
let lastPass = '';
/** Scenario files ended in the pass under way: its own line, rewritten on a terminal, every tenth otherwise. */
function fileProgress(pass: string, n: number, total: number): void {
  if (!plain) {
    if (lastPass && pass !== lastPass) process.stderr.write('\n');
    process.stderr.write(`\r  ${pass}: ${n}/${total} scenario files done`);
  } else if (n === total || n % Math.max(1, Math.ceil(total / 10)) === 0)
    process.stderr.write(`  ${pass}: ${n}/${total} scenario files done\n`);
  lastPass = pass;
}
function progress(n: number, total: number, what: string): void {
  if (!plain && lastPass) {
    process.stderr.write('\n');
    lastPass = '';
  }
  if (!plain) process.stderr.write(`\r  ${n}/${total} ${what} runs done`);
  else if (n === total || n % Math.max(1, Math.ceil(total / 10)) === 0)
    process.stderr.write(`  ${n}/${total} ${what} runs done\n`);
}
const report = await detect({
  concurrency,
  only: onlyFaults,
  variants,
  seed,
  bundleSize,
  onProgress: () => progress(++done, totalFaults, 'fault'),
  onVariant: () => progress(++variantsDone, variants.length, 'variant'),
  drawn,
  onFiles: fileProgress,
});
if (!plain) process.stderr.write('\n');
if (report.clean.problem) {
  console.error(`detection: ${report.clean.problem}`);
  process.exit(1);
}

if (report.faults.length) {
  const rows = report.faults.map((o) => ({
    fault: o.fault.name,
    requirement: o.fault.requirement,
    // Caught only for the right reason: a failing check cites the requirement the fault breaks.
    caught: o.caughtBy.length && o.runFailed ? 'yes' : o.failing.length ? 'other' : 'NO',
    by: o.caughtBy.length
      ? o.caughtBy.join(', ')
      : (o.problem ??
        (o.failing.length ? `failing checks cite other requirements: ${o.failing.join(', ')}` : 'no check failed')),
  }));
  const w = (k: 'fault' | 'requirement') => Math.max(k.length, ...rows.map((r) => r[k].length));
  console.log(`\n${'fault'.padEnd(w('fault'))}  ${'requirement'.padEnd(w('requirement'))}  caught  caught by`);
  for (const r of rows)
    console.log(
      `${r.fault.padEnd(w('fault'))}  ${r.requirement.padEnd(w('requirement'))}  ${r.caught.padEnd(6)}  ${r.by}`,
    );
}

const v = report.variants;
if (v) {
  const w = Math.max(7, ...v.outcomes.map((o) => o.variant.length));
  console.log(
    `\n${'variant'.padEnd(w)}  passed  run                  false positives (check: failed requirements: message)`,
  );
  for (const o of v.outcomes) {
    const run = o.run === 'bundle' ? o.bundle : o.run === 'alone' ? `${o.bundle}, alone` : `${o.bundle}, re-run alone`;
    const expectOnly = o.expectOnly.length ? `${o.expectOnly.length} EXPECT-only failures (not gating)` : '';
    const allowed = o.judge === 'no-fail' ? `${o.errors} errors (allowed)` : '';
    const verdict =
      o.problem ?? (o.falsePositives.length ? `${o.falsePositives.length} gating` : `${expectOnly}${allowed}`);
    console.log(`${o.variant.padEnd(w)}  ${(o.passed ? 'yes' : 'NO').padEnd(6)}  ${run.padEnd(19)}  ${verdict}`);
    for (const f of o.falsePositives)
      console.log(
        `${''.padEnd(w + 31)}${f.checkId} (${f.verdict}): ${f.failedRequirements.join(', ') || '-'}: ` +
          `${(f.message ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      );
    for (const f of o.incomplete ?? [])
      console.log(`${''.padEnd(w + 31)}${f.checkId} (could not judge: INCOMPLETE, not gating)`);
    for (const id of o.newSkips)
      console.log(`${''.padEnd(w + 31)}${id} (skip: could not verify here, did on the clean reference)`);
  }
  console.log(`\nBundles: ${v.bundles.map((b) => `${b.name} = ${b.variants.join(' + ')}`).join('; ')}`);
  for (const i of v.interactions) {
    console.log(`\nBundle ${i.bundle} (${i.variants.join(', ')}) failed although each variant passed alone:`);
    for (const f of i.falsePositives)
      console.log(
        `  ${f.checkId} (${f.verdict}): ${f.failedRequirements.join(', ') || '-'}: ` +
          `${(f.message ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      );
  }
}

const d = v?.drawn;
if (d) {
  console.log(`\nDrawn deployments (run seed ${d.runSeed}; replay one with REFERENCE_VARIANTS=drawn=<seed>):`);
  for (const o of d.outcomes) {
    const unjudged = o.incomplete?.length ? `, ${o.incomplete.length} could not judge (INCOMPLETE, not gating)` : '';
    const status =
      o.problem ??
      (o.falsePositives.length ? `${o.falsePositives.length} false positive(s)` : `${o.checks} checks${unjudged}`);
    console.log(`drawn=${String(o.seed).padEnd(6)} ${(o.passed ? 'yes' : 'NO').padEnd(4)} ${status}`);
    if (!o.passed || o.falsePositives.length || o.incomplete?.length)
      console.log(`             draw: ${o.specs.join(',') || '(the reference as it is)'}`);
    for (const f of o.incomplete ?? [])
      console.log(
        `             ${f.checkId} (could not judge): ${(f.message ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      );
    for (const f of o.falsePositives) {
      console.log(
        `             ${f.checkId} (${f.verdict}): ${f.failedRequirements.join(', ') || '-'}: ` +
          `${(f.message ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      );
      console.log(`               replay: ${f.replay}`);
    }
  }
}

const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '0');
const otherReason = report.faults.filter((o) => !(o.caughtBy.length && o.runFailed) && o.failing.length).length;
const faultScore =
  `${report.caught}/${report.faults.length} faults caught (${pct(report.caught, report.faults.length)}%), ` +
  (otherReason ? `${otherReason} more red only for another reason (not counted)` : 'none red only for another reason');
const variantScore = v?.outcomes.length
  ? `${v.passed}/${v.outcomes.length} variants passed (${pct(v.passed, v.outcomes.length)}%)`
  : 'variants not run';
const falsePositives = d?.outcomes.reduce((n, o) => n + o.falsePositives.length, 0) ?? 0;
const drawnScore = d
  ? `${d.passed}/${d.outcomes.length} drawn deployments passed, ${falsePositives} false ` +
    `positive${falsePositives === 1 ? '' : 's'}`
  : 'drawn deployments not run';
console.log(`\nScore: ${faultScore}   |   ${variantScore}   |   ${drawnScore}`);
const cleanFalse = report.clean.falsePositives.map((f) => `${f.checkId} (${f.verdict})`);
console.log(
  `False positives on the clean reference: ${cleanFalse.length} of ${report.clean.checks} ` +
    `checks${cleanFalse.length ? `: ${cleanFalse.join(', ')}` : ''}`,
);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const bundled = d ? `bundles and ${d.outcomes.length} drawn deployments` : 'bundles';
const variantTimes = v ? ` (${bundled} ${secs(v.bundleMs)}, re-runs alone ${secs(v.aloneMs)})` : '';
const allTimes = `variant runs ${secs(v?.ms ?? 0)}${variantTimes}, all runs ${secs(report.ms)}`;
console.log(`Time: clean run ${secs(report.clean.ms)}, ${allTimes}`);
if (opts.json)
  writeFileSync(
    opts.json,
    JSON.stringify(
      {
        ...report,
        faults: report.faults.map((o) => ({
          ...o,
          fault: { name: o.fault.name, requirement: o.fault.requirement, description: o.fault.description },
        })),
      },
      null,
      2,
    ),
  );
const allVariantsPassed = !v || (v.passed === v.outcomes.length && (!d || d.passed === d.outcomes.length));
process.exit(
  report.caught === report.faults.length && report.clean.falsePositives.length === 0 && allVariantsPassed ? 0 : 1,
);
