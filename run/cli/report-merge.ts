/**
 * `npm run report:merge -- [--out reports] [--run-id ID] <shard run folder>...`: joins the shards
 * of a sharded run into one run folder with one report (see report/merge.ts).
 * Exit code: the merged run's gate (0 pass, 1 fail), 2 on bad arguments.
 */
import { parseArgs } from 'node:util';
import { mergeShards } from '../../report/merge.js';
import { consoleSummary } from '../../report/console-summary.js';

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ allowPositionals: true, options: { out: { type: 'string', default: process.env.CONFORMANCE_REPORT_DIR || 'reports' }, 'run-id': { type: 'string' } } });
  } catch (e) {
    console.error(`report:merge: ${(e as Error).message}`);
    return 2;
  }
  if (!args.positionals.length) {
    console.error('report:merge: usage: npm run report:merge -- [--out reports] [--run-id ID] <shard run folder>...');
    return 2;
  }
  try {
    const { folder, summary } = await mergeShards(args.positionals, { reportDir: args.values.out!, runId: args.values['run-id'] });
    console.log(consoleSummary(summary, folder));
    return summary.gate.verdict === 'fail' || summary.totals.checks === 0 ? 1 : 0;
  } catch (e) {
    console.error(`report:merge: ${(e as Error).message}`);
    return 2;
  }
}

process.exitCode = await main();
