/**
 * Import rules of the project's folders (docs/architecture.md draws them). `npm test` runs them
 * (test/architecture.test.ts): a violation, an import circle or an orphan file fails the build.
 *
 * One folder per product; each may import the folders named in its rule and npm packages.
 */
const FOLDERS = ['specs', 'generators', 'harness', 'scenarios', 'reference', 'report', 'run', 'detection', 'linkage'];

/** folder -> folders it may import (besides itself). */
const ALLOWED = {
  specs: [],
  generators: ['specs'],
  // harness may use the generators' seeding only (a check's Faker is seeded from the run seed).
  harness: ['specs', 'generators/seed\\.ts'],
  scenarios: ['specs', 'generators', 'harness'],
  reference: ['specs'],
  report: ['specs', 'harness'],
  run: ['specs', 'generators', 'harness', 'reference', 'report'],
  detection: ['specs', 'generators', 'harness', 'reference', 'report', 'run'],
  // linkage starts the embedded reference through run/deployments.ts when nothing is configured,
  // its commands share the command-line frame of run/command.ts, and the matching decisions that
  // changed between two clusterings are report/pair-decisions.ts's (npm run compare lists them too).
  // The paired verdict in words, report/match-verdict.ts, is npm run compare's too.
  linkage: [
    'specs',
    'generators',
    'harness',
    'run/(deployments|command)\\.ts',
    'report/(pair-decisions|match-verdict)\\.ts',
  ],
};

const folderRules = Object.entries(ALLOWED).map(([from, allowed]) => ({
  name: `${from}-imports`,
  comment: `${from}/ may import ${allowed.length ? allowed.join(', ') : 'nothing of the project'} (and itself)`,
  severity: 'error',
  from: { path: `^${from}/` },
  to: {
    path: `^(${FOLDERS.join('|')}|test|bench)/`,
    pathNot: [`^${from}/`, ...allowed.map((a) => `^${a}(/|$)`)],
  },
}));

module.exports = {
  forbidden: [
    ...folderRules,
    { name: 'no-circular', severity: 'error', comment: 'No import circles.', from: {}, to: { circular: true } },
    {
      name: 'walks-judge-apart',
      severity: 'error',
      comment:
        'The walk engine (scenarios/shared/walk/) does not import the table-driven rules (scenarios/shared/rules/): rules may name a walk configuration, never the other way round.',
      from: { path: '^scenarios/shared/walk/' },
      to: { path: '^scenarios/shared/rules/' },
    },
    {
      name: 'rules-reach-walks-through-scripts',
      severity: 'error',
      comment:
        'The table-driven rules (scenarios/shared/rules/) do not import the walk engine (scenarios/shared/walk/): what both name lives below them (scenarios/shared/walk-config.ts, declared.ts, state/), and a rule runs state-table steps through scenarios/shared/script.ts.',
      from: { path: '^scenarios/shared/rules/' },
      to: { path: '^scenarios/shared/walk/' },
    },
    {
      name: 'state-judges-without-walking',
      severity: 'error',
      comment:
        'What the walks keep about a state (scenarios/shared/state/: the coverage bookkeeping) imports neither the walk engine, the rules nor the scripted steps; what judges a state (the record model, the oracle, step and feed clauses) lives in specs/state/, below all of them.',
      from: { path: '^scenarios/shared/state/' },
      to: { path: '^scenarios/shared/(walk/|rules/|script\\.ts$)' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'Every module is imported, or is an entry point (tests, configs, command-line tools, reporters and setups named in configs).',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)\\.[^/]+\\.(c|m)?js$',
          '\\.d\\.ts$',
          '\\.test\\.ts$',
          '(^|/)vitest\\.[^/]*config\\.ts$',
          '^run/cli/',
          // named in vitest.config.ts as its test runner
          '^run/vitest/side-by-side-runner\\.mjs$',
          '^(detection|linkage)/cli\\.ts$',
          '^detection/mutation/cli\\.ts$',
          // preloaded (node --import) by the mutation measure's coverage runs
          '^detection/mutation/coverage-dump\\.mjs$',
          '^bench/',
          '^test/',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: `^(${[...FOLDERS, 'test', 'bench'].join('|')})/|^vitest\\.`,
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
