/**
 * Every command answers --help with its own usage (settings, exit codes, examples) and --version
 * with the suite's name and version, and refuses an unknown option with one line and exit code 2
 * (run/command.ts, commander).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linesOf, runCommand } from './support/command.js';
import { sampled } from './support/tier.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
  scripts: Record<string, string>;
};

/**
 * How a package.json script runs a command of ours: Node, with a TypeScript one compiled
 * (run/cli/compiled.mjs), in place of npm's shell (`exec`), so that a signal npm passes on reaches
 * the command itself: a shell in between dies of SIGTERM and leaves the command running, and
 * waits out SIGINT.
 */
const SCRIPT = /^exec node (run\/cli\/compiled\.mjs )?(\S+\.(ts|mjs))$/;

/** Every package.json script that runs a command of ours, plus the documented `npx tsx` benchmarks that take arguments. */
const COMMANDS: Array<[string, string]> = [
  ...Object.entries(pkg.scripts)
    .filter(([, cmd]) => SCRIPT.test(cmd))
    .map(([name, cmd]) => [name, SCRIPT.exec(cmd)![2]!] as [string, string]),
  ['resilience-targets', 'bench/resilience-targets.ts'],
  ['match-quality benchmark', 'linkage/bench/match-quality.ts'],
];

describe.concurrent('commands', () => {
  it('the list covers every command script', () => {
    expect(COMMANDS.map(([n]) => n)).toEqual(
      expect.arrayContaining([
        'conformance',
        'reference',
        'cleanup',
        'compare',
        'report:allure',
        'report:merge',
        'detection',
        'match-quality',
        'bench',
        'bench:report',
      ]),
    );
  });

  it('every script that runs Node runs it in place of the shell (exec), as the list reads them', () => {
    expect(Object.entries(pkg.scripts).filter(([, cmd]) => /^(exec )?node /.test(cmd) && !SCRIPT.test(cmd))).toEqual(
      [],
    );
  });

  it.each(COMMANDS)('%s --help prints its usage, settings or exit codes, and examples', async (name, script) => {
    const r = await runCommand(script, ['--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: /);
    expect(r.stdout).toContain('Exit codes:');
    expect(r.stdout).toMatch(/Examples:\n {2}\S/);
    expect(r.stdout).toMatch(new RegExp(`(npm run ${name.replace(/[:.]/g, '\\$&')} --|npx tsx)`));
  });

  // One frame (run/command.ts) prints every command's version: two commands in `npm test`, each in `npm run test:full`.
  it.each(
    sampled(
      COMMANDS,
      COMMANDS.filter(([n]) => ['conformance', 'match-quality'].includes(n)),
    ),
  )('%s --version prints the suite name and version', async (_name, script) => {
    const r = await runCommand(script, ['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`${pkg.name} ${pkg.version}`);
  });

  // conformance and the benchmarks that run it pass options they do not know to vitest; cleanup needs its --run first.
  it.each(COMMANDS.filter(([n]) => !['conformance', 'bench', 'bench:latency'].includes(n)))(
    '%s refuses an unknown option with one line, exit code 2',
    async (name, script) => {
      const r = await runCommand(script, [...(name === 'cleanup' ? ['--run', 'some-run'] : []), '--no-such-option']);
      expect(r.code).toBe(2);
      expect(linesOf(r.stderr)).toEqual([`${name}: unknown option '--no-such-option'`]);
      expect(r.stdout).toBe('');
    },
  );
});
