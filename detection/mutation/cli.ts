/**
 * `npm run mutation -- [--sample N] [--seed S] [--files a,b] [--time-limit minutes] [...]`: measures
 * how many mechanical defects of the embedded reference (mutants of its behaviour files, made by
 * Stryker's instrumenter) the conformance suite catches, and prints every surviving mutant and, as
 * its last line, the score with and without the survivors triaged equivalent or legal in
 * detection/mutants.md (detection/mutation/measure.ts says how; docs/detection.md, "Mutants").
 */
import { resolve } from 'node:path';
import type { ServiceName } from '../../specs/common/model.js';
import { command, integer, parseArguments, usageError } from '../../run/command.js';
import { ALL_SERVICES, NOT_BEHAVIOUR, pickFiles } from './behaviour.js';
import { RUNNING } from './conformance-run.js';
import { instrument } from './instrument.js';
import { measure } from './measure.js';
import { mutation, progressLine, summaryText, untriaged } from './print.js';
import { writeSchemaReport } from './schema-report.js';
import { readTriage, resolveTriage } from './triage.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

const program = command({
  name: 'mutation',
  summary:
    'Measures detection with mutants nobody chose: Stryker\'s instrumenter mutates the embedded reference\'s behaviour, the suite runs once per sampled mutant (only the services the mutant reaches, stopping at the first failure), and every survivor is printed with its triage (detection/mutants.md); the last line is the score (docs/detection.md, "Mutants").',
  exitCodes: {
    0: 'the measure ran and every survivor is triaged in detection/mutants.md',
    1: 'a survivor is not triaged, or a row of the triage file cannot be used',
    2: 'bad arguments',
    3: 'the measure could not run: the clean reference failed its own suite, or another measure holds the sandbox',
    130: 'interrupted (SIGINT or SIGTERM): the mutants judged so far are printed',
  },
  examples: [
    'npm run mutation -- --sample 400 --seed 1 --journal reports/mutation.jsonl',
    'npm run mutation -- --files reference/store.ts --sample 30 --seed 7',
    'npm run mutation -- --files reference/matching --list',
    'npm run mutation -- --mutant reference/store.ts:126:23:BlockStatement:09f6a3',
  ],
})
  .option(
    '--sample <n>',
    'mutants to draw from the files picked (default 400; all of them when there are fewer)',
    integer(1, 100000),
  )
  .option('--seed <n>', 'seed of the sample', integer(0, 2 ** 31 - 1), 1)
  .option('--run-seed <n>', "seed of every run's generated data (CONFORMANCE_SEED)", integer(0, 2 ** 31 - 1), 12345)
  .option('--files <list>', 'comma list of behaviour files or folders under reference/ (default: all; --list-files)')
  .option('--mutant <id...>', 'measure these mutants, by stable ID (instead of a sample)')
  .option('--services <list>', "run only these services' suites (comma list)")
  .option(
    '--time-limit <minutes>',
    'start no mutant after this long; the score covers the mutants judged',
    integer(1, 100000),
  )
  .option(
    '--run-time-limit <seconds>',
    "each run's time limit (default: three times its services' clean runs, at least 60 s)",
    integer(10, 100000),
  )
  .option('--no-coverage', 'no coverage pass: every mutant runs every service its file serves')
  .option('--all-services', 'every mutant runs every service its file serves, whatever the coverage pass says')
  .option(
    '--sandbox <name>',
    'a sandbox of its own (letters, digits, dashes), to measure beside another measure of this checkout',
  )
  .option('--journal <file>', 'append each result to this file and resume from it (same project, same run seed)')
  .option(
    '--json <file>',
    'also write the results as a mutation testing report (mutation-testing-report-schema, as Stryker writes)',
  )
  .option('--list', 'list the mutants of the files picked (ID, place, mutator, original and replacement) and exit')
  .option('--list-files', 'list the behaviour files with their mutant counts, and what is not mutated, and exit');
parseArguments(program);
const opts = program.opts<{
  sample?: number;
  seed: number;
  runSeed: number;
  files?: string;
  mutant?: string[];
  services?: string;
  timeLimit?: number;
  runTimeLimit?: number;
  coverage: boolean;
  allServices?: boolean;
  sandbox?: string;
  journal?: string;
  json?: string;
  list?: boolean;
  listFiles?: boolean;
}>();
const fail = (message: string): never => usageError(program, message);
const { seed, runSeed, timeLimit, runTimeLimit } = opts;
const sample = opts.sample ?? 400;
const services = opts.services?.split(',').map((s) => s.trim()) as ServiceName[] | undefined;
const unknownService = services?.find((s) => !ALL_SERVICES.includes(s));
if (unknownService) fail(`--services: "${unknownService}" is none of ${ALL_SERVICES.join(', ')}`);
if (opts.mutant && opts.sample) fail('--mutant and --sample exclude each other');
if (opts.sandbox !== undefined && !/^[A-Za-z0-9-]{1,40}$/.test(opts.sandbox))
  fail(`--sandbox: expected up to 40 letters, digits and dashes, got ${JSON.stringify(opts.sandbox)}`);
let files: string[] = [];
try {
  files = pickFiles(
    ROOT,
    opts.files
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean),
  );
} catch (e) {
  fail(`--files: ${(e as Error).message}`);
}

if (opts.list || opts.listFiles) {
  const { mutants } = await instrument(ROOT, files);
  if (opts.list) for (const m of mutants) console.log(`${m.id}  ${mutation(m)}`);
  else {
    for (const f of files) console.log(`${f.padEnd(36)} ${mutants.filter((m) => m.file === f).length} mutants`);
    for (const n of NOT_BEHAVIOUR) console.log(`not mutated: ${n.path.padEnd(23)} ${n.why}`);
  }
  console.log(`${mutants.length} mutants in ${files.length} files`);
  process.exit(0);
}

let stopped = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stopped = true;
    console.error(`mutation: ${signal}: stopping after the runs under way end; the mutants judged so far are printed`);
    for (const pid of RUNNING) process.kill(pid, signal);
  });

let result: Awaited<ReturnType<typeof measure>>;
try {
  result = await measure({
    root: ROOT,
    files: opts.files ? files : undefined,
    mutantIds: opts.mutant,
    sample: opts.mutant ? undefined : sample,
    seed,
    runSeed,
    ...(timeLimit ? { timeLimitMs: timeLimit * 60000 } : {}),
    ...(runTimeLimit ? { runTimeLimitMs: runTimeLimit * 1000 } : {}),
    coverage: opts.coverage,
    ...(services ? { services } : {}),
    allServices: opts.allServices,
    ...(opts.sandbox ? { label: opts.sandbox } : {}),
    journal: opts.journal,
    stopped: () => stopped,
    onProgress: (e) => {
      if (e.kind === 'instrumented')
        console.error(
          `mutation: ${e.mutants} mutants in ${e.files} files; measuring ${e.selected} (seed ${seed}, run seed ${runSeed})`,
        );
      else if (e.kind === 'clean')
        console.error(
          `mutation: clean run of ${e.service}: ${(e.ms / 1000).toFixed(1)} s, reaches ${e.reached} mutants`,
        );
      else console.error(progressLine(e.done, e.of, e.result));
    },
  });
} catch (e) {
  console.error(`mutation: ${(e as Error).message}`);
  process.exit(/^no mutant of the files/.test((e as Error).message) ? 2 : 3);
}
const triage = resolveTriage(readTriage(ROOT), result.mutants);
if (opts.json) writeSchemaReport(resolve(opts.json), ROOT, result, { seed, runSeed });
console.log(summaryText(result, triage, { seed, runSeed }));
process.exit(stopped ? 130 : untriaged(result, triage).length || triage.problems.length ? 1 : 0);
