/**
 * `npm run report:allure -- [run folder]`: builds the Allure report of a run (default reports/latest) from its
 * allure-results/ with the `allure` npm package (Allure 3, no Java) as ONE file, <run folder>/allure-report/index.html,
 * that opens from disk (Awesome plugin, singleFile). Its title names the deployment, the run and its verdict with the
 * exit code, and its overview lists the verdict, exit code, target and gate (report/allure-run.ts); its tree is service
 * → area → operation; it keeps history in <report dir>/allure-history/<deployment>.jsonl, shared by the runs of
 * that deployment, so trends show from the second run on. Requirement links point at ../report.html#req-<ID>
 * (CONFORMANCE_REQUIREMENT_URL overrides). The report makes no request when opened: Allure's analytics script is
 * removed (report/allure-offline.ts). Exit codes: 0 built; 1 allure failed; 2 no allure-results or no summary.json in
 * the folder.
 */
import { reportDirSetting } from '../../harness/config.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { withoutAnalytics } from '../../report/allure-offline.js';
import { allureReportName, allureVariables, historyFile } from '../../report/allure-run.js';
import type { Summary } from '../../report/summary.js';
import { command, parseArguments } from '../command.js';

const program = command({
  name: 'report:allure',
  summary:
    'Builds the Allure report of a run folder (default reports/latest) as one file, <run ' +
    'folder>/allure-report/index.html, that opens from disk (Allure 3, no Java), with history per deployment.',
  settings: [
    'CONFORMANCE_REPORT_DIR  where run folders are (default reports)',
    'CONFORMANCE_REQUIREMENT_URL  where requirement links point (default ../report.html#req-%s)',
  ],
  exitCodes: {
    0: 'built',
    1: 'allure generate failed',
    2: 'bad arguments, or no allure-results or no summary.json in the folder',
  },
  examples: ['npm run report:allure', 'npm run report:allure -- reports/20261121-071425-61c6'],
}).argument('[run folder]', 'the run folder (default <report dir>/latest)');
parseArguments(program);

function main(): number {
  const folder = program.args[0] ?? join(reportDirSetting(), 'latest');
  const results = join(folder, 'allure-results');
  if (!existsSync(results) || !readdirSync(results).length) {
    console.error(`report:allure: no Allure results in ${results} (run the suite first, or name a run folder)`);
    return 2;
  }
  if (!existsSync(join(folder, 'summary.json'))) {
    console.error(`report:allure: no summary.json in ${folder} (a finished run folder is needed)`);
    return 2;
  }
  const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as Summary;
  const runFolder = realpathSync(folder);
  const output = join(runFolder, 'allure-report');
  const history = historyFile(dirname(runFolder), summary);
  mkdirSync(dirname(history), { recursive: true });
  const name = allureReportName(summary);
  const config = {
    name,
    output,
    historyPath: resolve(history),
    // The overview lists them under the report's name: verdict, exit code, target, the gate in counts.
    variables: allureVariables(summary),
    plugins: {
      awesome: { options: { reportName: name, singleFile: true, groupBy: ['parentSuite', 'suite', 'subSuite'] } },
    },
  };
  const configFile = join(runFolder, 'allurerc.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  // The package exports no package.json; its main entry is dist/index.js, the bin cli.js beside dist/.
  const cli = join(dirname(dirname(createRequire(import.meta.url).resolve('allure'))), 'cli.js');
  const r = spawnSync(
    process.execPath,
    [cli, 'generate', '--config', configFile, '--cwd', runFolder, join(runFolder, 'allure-results')],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const page = join(output, 'index.html');
  if (r.status !== 0 || !existsSync(page)) {
    console.error(`report:allure: allure generate failed (${r.error?.message ?? `exit ${r.status}`})`);
    return 1;
  }
  writeFileSync(page, withoutAnalytics(readFileSync(page, 'utf8')).html);
  console.log(`report:allure: ${page} ("${name}"; history ${history})`);
  return 0;
}

process.exitCode = main();
