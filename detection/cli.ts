/**
 * `npm run detection -- [--only a,b] [--variants-only] [--no-variants] [--seed N] [--concurrency N] [--list] [--json file]`:
 * runs the conformance suite against the embedded reference cleanly, once per catalogued fault
 * and once per catalogued legitimate variant, and prints the detection table (fault, requirement,
 * the checks that caught it), the variant table (variant, passed, its false positives with check
 * ID, failed requirements and message), and the two scores side by side: faults caught / faults
 * and variants passed / variants.
 *
 * `--only` takes fault names and variant specs (`name` or `name=value`); `--variants-only` runs the
 * clean run and the variants, no fault; `--bundle-size 1` runs every variant on its own reference; `--seed N` seeds the generated data of every run
 * (as CONFORMANCE_SEED does). Exit code 0 when every fault run is caught, every variant passed and
 * the clean run has no failure; 1 otherwise; 2 for bad arguments. See docs/detection.md.
 */
import { writeFileSync } from 'node:fs';
import { FAULT_LIST, applied } from '../reference/faults/catalogue.js';
import { VARIANT_LIST } from '../reference/variants/catalogue.js';
import { ReferenceSettingError, parseVariantList } from '../reference/variants/registry.js';
import { plainOutput } from '../report/progress.js';
import { command, parseArguments, usageError } from '../run/command.js';
import { detect } from './runner.js';
import { type PlannedVariant, plannedVariants } from './variants.js';

const program = command({
  name: 'detection',
  summary:
    'Runs the conformance suite against the embedded reference cleanly, once per catalogued fault and once per catalogued legitimate variant, and prints which checks caught each fault, which variants passed, the two scores and any false positive (docs/detection.md).',
  exitCodes: [
    [0, 'every fault caught, every variant passed and no failure on the clean reference'],
    [1, 'a fault was not caught, a variant failed a check, or the clean run failed a check'],
    [2, 'bad arguments'],
  ],
  examples: [
    'npm run detection',
    'npm run detection -- --list',
    'npm run detection -- --only merge-no-unify,search-lag=1500 --json detection.json',
    'npm run detection -- --variants-only --seed 3',
  ],
})
  .option('--only <names>', 'comma list of faults and variants (name or name=value) to run (default: all)')
  .option('--variants-only', 'the clean run and the variants, no fault')
  .option('--no-variants', 'no variant run')
  .option('--seed <n>', 'seed of the generated data of every run (as CONFORMANCE_SEED)')
  .option('--bundle-size <n>', 'variants sharing one run, 1-50 (1: every variant alone)')
  .option('--concurrency <n>', 'workers, 1-16', '2')
  .option('--list', 'list the faults and the variants and exit')
  .option('--json <file>', 'also write the results as JSON');
parseArguments(program);
const opts = program.opts<{
  only?: string;
  variantsOnly?: boolean;
  variants: boolean;
  seed?: string;
  bundleSize?: string;
  concurrency: string;
  list?: boolean;
  json?: string;
}>();
const values = { ...opts, 'variants-only': opts.variantsOnly, 'no-variants': opts.variants === false, 'bundle-size': opts.bundleSize };
if (values.list) {
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
    console.log(`variant  ${(v.name + value).padEnd(34)} ${v.description}${notes.length ? ` [${notes.join('; ')}]` : ''}`);
    for (const s of v.seeds) console.log(`         ${''.padEnd(34)} ${s.file}, ${s.section}: "${s.quote}"`);
  }
  console.log(`${FAULT_LIST.length} faults, ${VARIANT_LIST.length} variants`);
  process.exit(0);
}
const fail = (message: string): never => usageError(program, message);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
  fail(`--concurrency: expected an integer from 1 to 16, got ${JSON.stringify(values.concurrency)}`);
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31 - 1))
  fail(`--seed: expected an integer from 0 to 2147483647, got ${JSON.stringify(values.seed)}`);
const bundleSize = values['bundle-size'] === undefined ? undefined : Number(values['bundle-size']);
if (bundleSize !== undefined && (!Number.isInteger(bundleSize) || bundleSize < 1 || bundleSize > 50))
  fail(`--bundle-size: expected an integer from 1 to 50, got ${JSON.stringify(values['bundle-size'])}`);
if (values['variants-only'] && values['no-variants']) fail('--variants-only and --no-variants exclude each other');

// --only: fault names and variant specs; without it, every fault and every variant.
const named = values.only ? parseVariantList(values.only) : undefined;
const isFault = (n: string) => FAULT_LIST.some((f) => f.name === n);
const isVariant = (n: string) => VARIANT_LIST.some((v) => v.name === n);
const unknown = named?.filter((s) => !isFault(s.name) && !isVariant(s.name)).map((s) => s.name) ?? [];
if (unknown.length) fail(`--only: unknown fault(s) or variant(s) ${unknown.join(', ')} (npm run detection -- --list)`);
const onlyFaults = values['variants-only']
  ? []
  : named
    ? named.filter((s) => s.value === undefined && isFault(s.name)).map((s) => s.name)
    : undefined;
let variants: PlannedVariant[] = [];
try {
  const specs = named
    ? named.filter((s) => isVariant(s.name)).map((s) => (s.value === undefined ? s.name : `${s.name}=${s.value}`))
    : undefined;
  variants = values['no-variants'] ? [] : plannedVariants(specs);
} catch (e) {
  if (e instanceof ReferenceSettingError) fail(`--only: ${e.message}`);
  throw e;
}

const totalFaults = onlyFaults?.length ?? FAULT_LIST.length;
let done = 0;
let variantsDone = 0;
console.log(
  `Detection${seed !== undefined ? ` (seed ${seed})` : ''}: clean run, then ${totalFaults} fault runs and ${variants.length} variant runs (${concurrency} workers)...`,
);
// One rewritten line on a terminal; plain lines at every tenth otherwise (a CI log, a file).
const plain = plainOutput(process.stderr);
function progress(n: number, total: number, what: string): void {
  if (!plain) process.stderr.write(`\r  ${n}/${total} ${what} runs done`);
  else if (n === total || n % Math.max(1, Math.ceil(total / 10)) === 0) process.stderr.write(`  ${n}/${total} ${what} runs done\n`);
}
const report = await detect({
  concurrency,
  only: onlyFaults,
  variants,
  seed,
  bundleSize,
  onProgress: () => progress(++done, totalFaults, 'fault'),
  onVariant: () => progress(++variantsDone, variants.length, 'variant'),
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
      : (o.problem ?? (o.failing.length ? `failing checks cite other requirements: ${o.failing.join(', ')}` : 'no check failed')),
  }));
  const w = (k: 'fault' | 'requirement') => Math.max(k.length, ...rows.map((r) => r[k].length));
  console.log(`\n${'fault'.padEnd(w('fault'))}  ${'requirement'.padEnd(w('requirement'))}  caught  caught by`);
  for (const r of rows)
    console.log(`${r.fault.padEnd(w('fault'))}  ${r.requirement.padEnd(w('requirement'))}  ${r.caught.padEnd(6)}  ${r.by}`);
}

const v = report.variants;
if (v) {
  const w = Math.max(7, ...v.outcomes.map((o) => o.variant.length));
  console.log(`\n${'variant'.padEnd(w)}  passed  run                  false positives (check: failed requirements: message)`);
  for (const o of v.outcomes) {
    const run = o.run === 'bundle' ? o.bundle : o.run === 'alone' ? `${o.bundle}, alone` : `${o.bundle}, re-run alone`;
    console.log(
      `${o.variant.padEnd(w)}  ${(o.passed ? 'yes' : 'NO').padEnd(6)}  ${run.padEnd(19)}  ${o.problem ?? (o.falsePositives.length ? `${o.falsePositives.length} gating` : `${o.expectOnly.length ? `${o.expectOnly.length} EXPECT-only failures (not gating)` : ''}${o.judge === 'no-fail' ? `${o.errors} errors (allowed)` : ''}`)}`,
    );
    for (const f of o.falsePositives)
      console.log(
        `${''.padEnd(w + 31)}${f.checkId} (${f.verdict}): ${f.failedRequirements.join(', ') || '-'}: ${(f.message ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      );
    for (const id of o.newSkips) console.log(`${''.padEnd(w + 31)}${id} (skip: could not verify here, did on the clean reference)`);
  }
  console.log(`\nBundles: ${v.bundles.map((b) => `${b.name} = ${b.variants.join(' + ')}`).join('; ')}`);
  for (const i of v.interactions) {
    console.log(`\nBundle ${i.bundle} (${i.variants.join(', ')}) failed although each variant passed alone:`);
    for (const f of i.falsePositives)
      console.log(
        `  ${f.checkId} (${f.verdict}): ${f.failedRequirements.join(', ') || '-'}: ${(f.message ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      );
  }
}

const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '0');
const otherReason = report.faults.filter((o) => !(o.caughtBy.length && o.runFailed) && o.failing.length).length;
const faultScore = `${report.caught}/${report.faults.length} faults caught (${pct(report.caught, report.faults.length)}%)${otherReason ? `, ${otherReason} more red only for another reason (not counted)` : ', none red only for another reason'}`;
const variantScore = v ? `${v.passed}/${v.outcomes.length} variants passed (${pct(v.passed, v.outcomes.length)}%)` : 'variants not run';
console.log(`\nScore: ${faultScore}   |   ${variantScore}`);
console.log(
  `False positives on the clean reference: ${report.clean.falsePositives.length} of ${report.clean.checks} checks${report.clean.falsePositives.length ? `: ${report.clean.falsePositives.map((f) => `${f.checkId} (${f.verdict})`).join(', ')}` : ''}`,
);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `Time: clean run ${secs(report.clean.ms)}, variant runs ${secs(v?.ms ?? 0)}${v ? ` (bundles ${secs(v.bundleMs)}, re-runs alone ${secs(v.aloneMs)})` : ''}, all runs ${secs(report.ms)}`,
);
if (values.json)
  writeFileSync(
    values.json,
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
const allVariantsPassed = !v || v.passed === v.outcomes.length;
process.exit(report.caught === report.faults.length && report.clean.falsePositives.length === 0 && allVariantsPassed ? 0 : 1);
