/**
 * `npm run report:merge -- [--out reports] [--run-id ID] <shard run folder>...`: joins the shards of a sharded run into
 * one run folder with one report (see report/merge.ts). Exit code: the merged run's outcome, as its headline says
 * (report/outcome.ts: 0 pass, 1 fail or no check, 4 records left on the deployment, 5 incomplete), 2 on bad arguments.
 */
import { reportDirSetting } from '../../harness/config.js';
import { mergeShards } from '../../report/merge.js';
import { consoleSummary } from '../../report/console-summary.js';
import { command, parseArguments } from '../command.js';
import { exitCodeOf } from '../../report/outcome.js';

const program = command({
  name: 'report:merge',
  summary:
    'Joins the run folders of a sharded run (npm run conformance -- --shard=i/n on n machines) into one run ' +
    'folder and report.',
  settings: ['CONFORMANCE_REPORT_DIR  default of --out (default reports)'],
  exitCodes: {
    0: 'the merged run passes its gate',
    1: 'the merged run fails its gate, or holds no check',
    2: 'bad arguments, or a folder that is not a finished run folder and holds none',
    4: 'a shard left records of the run on the deployment (npm run cleanup -- --run <shard run id>)',
    5: 'the merged run is INCOMPLETE: nothing failed, but checks could not judge',
  },
  examples: [
    'npm run report:merge -- --run-id nightly-42 reports/nightly-42-s1of2 reports/nightly-42-s2of2',
    'npm run report:merge -- --out reports --run-id gh-42-1 shards/*/',
  ],
})
  .argument(
    '<shard run folder...>',
    "the shards' run folders, or folders holding them directly under them (a CI artifact download's folder per artifact)",
  )
  .option('--out <dir>', 'report directory of the merged run folder', reportDirSetting())
  .option('--run-id <id>', "run id of the merged run (default: the shards' id plus -merged)");
parseArguments(program);

async function main(): Promise<number> {
  const args = { positionals: program.args, values: program.opts<{ out: string; runId?: string }>() };
  try {
    const { folder, summary } = await mergeShards(args.positionals, {
      reportDir: args.values.out,
      runId: args.values.runId,
    });
    console.log(consoleSummary(summary, folder));
    return exitCodeOf(summary);
  } catch (e) {
    console.error(`report:merge: ${(e as Error).message}`);
    return 2;
  }
}

process.exitCode = await main();
