/**
 * `npm run report:allure -- [run folder]`: builds the Allure HTML report of a run (default
 * reports/latest) from its allure-results/ into <run folder>/allure-report/ with the `allure`
 * npm package (Allure 3, no Java). Open allure-report/index.html, or `npx allure open <dir>`.
 * Requirement links point at ../report.html#req-<ID> (CONFORMANCE_REQUIREMENT_URL overrides).
 * Exit codes: 0 built; 1 allure failed; 2 no allure-results in the folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { command, parseArguments } from '../command.js';

const program = command({
  name: 'report:allure',
  summary: 'Builds the Allure HTML report of a run folder (default reports/latest) into <run folder>/allure-report/ (Allure 3, no Java).',
  settings: ['CONFORMANCE_REPORT_DIR  where run folders are (default reports)', 'CONFORMANCE_REQUIREMENT_URL  where requirement links point (default ../report.html#req-%s)'],
  exitCodes: [
    [0, 'built'],
    [1, 'allure generate failed'],
    [2, 'bad arguments, or no allure-results in the folder'],
  ],
  examples: ['npm run report:allure', 'npm run report:allure -- reports/20261121-071425-61c6'],
}).argument('[run folder]', 'the run folder (default <report dir>/latest)');
parseArguments(program);

function main(): number {
  const folder = program.args[0] ?? join(process.env.CONFORMANCE_REPORT_DIR || 'reports', 'latest');
  const results = join(folder, 'allure-results');
  if (!existsSync(results) || !readdirSync(results).length) {
    console.error(`report:allure: no Allure results in ${results} (run the suite first, or name a run folder)`);
    return 2;
  }
  const output = join(folder, 'allure-report');
  // The package exports no package.json; its main entry is dist/index.js, the bin cli.js beside dist/.
  const cli = join(dirname(dirname(createRequire(import.meta.url).resolve('allure'))), 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'generate', results, '--output', output, '--report-name', `Conformance ${folder}`], { stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(join(output, 'index.html'))) {
    console.error(`report:allure: allure generate failed (${r.error?.message ?? `exit ${r.status}`})`);
    return 1;
  }
  console.log(`report:allure: ${join(output, 'index.html')}`);
  return 0;
}

process.exitCode = main();
