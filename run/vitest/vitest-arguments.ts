/**
 * The arguments `npm run conformance` passes on to vitest, checked before anything runs (no preflight request, no
 * reference started), so a mistyped option or a filter that names no scenario file is one line and exit code 2 instead
 * of vitest's stack trace or a run of nothing:
 * - options are read by vitest's own command-line parser (its cac instance): an option vitest does not know, or a value
 *   it refuses, is reported in vitest's words;
 * - every file filter (a folder or part of a file path, as vitest matches them: a substring of the test file's path)
 *   must match at least one scenario file of the suite.
 * Everything after `--` goes to vitest unread.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folder and file pattern of the suite's scenario files (vitest.config.ts `include`: scenarios/**\/*.test.ts). */
export const SCENARIO_FOLDER = 'scenarios';
const isScenarioFile = (path: string) => path.endsWith('.test.ts');

/** The suite's scenario files, relative to `root`, with forward slashes. */
export function scenarioFiles(root = process.cwd()): string[] {
  return (readdirSync(join(root, SCENARIO_FOLDER), { recursive: true }) as string[])
    .map((f) => `${SCENARIO_FOLDER}/${f.split('\\').join('/')}`)
    .filter(isScenarioFile)
    .sort();
}

interface CacCommand {
  checkUnknownOptions(): void;
  checkOptionValue(): void;
}
interface Cac {
  parse(argv: string[], options: { run: boolean }): { args: string[]; options: Record<string, unknown> };
  matchedCommand?: CacCommand;
}

/**
 * vitest's own command-line parser (the cac instance its `vitest` binary builds), found through the import its binary
 * makes; undefined when this vitest is laid out otherwise (then only the file filters are checked and vitest reports
 * unknown options itself).
 */
async function vitestCli(): Promise<Cac | undefined> {
  try {
    const dist = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'dist');
    const binary = readFileSync(join(dist, 'cli.js'), 'utf8');
    const found = /import\s*\{\s*(\w+)\s+as\s+createCLI\s*\}\s*from\s*['"]([^'"]+)['"]/.exec(binary);
    if (!found) return undefined;
    const module = (await import(pathToFileURL(join(dist, found[2]!)).href)) as Record<string, unknown>;
    const create = module[found[1]!];
    return typeof create === 'function' ? (create as () => Cac)() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when vitest would run `file` for the filter `filter` (vitest's filterFiles: a substring of the path, either as
 * given or relative to the root).
 */
function matches(file: string, filter: string, root: string): boolean {
  const f = filter.replace(/:\d+(-\d+)?$/, ''); // file:line filters name a file
  const path = file.toLocaleLowerCase();
  if (isAbsolute(f)) return resolve(root, file).startsWith(f);
  const rel = relative(root, resolve(root, f)).split('\\').join('/');
  return path.includes(f.toLocaleLowerCase()) || (rel !== '' && path.includes(rel.toLocaleLowerCase()));
}

/**
 * Checks the arguments for vitest (those before a `--`).
 * @returns the problem in one line, or undefined when vitest can take them
 */
export async function vitestArgumentProblem(args: string[], root = process.cwd()): Promise<string | undefined> {
  const end = args.indexOf('--');
  const read = end < 0 ? args : args.slice(0, end);
  if (!read.length) return undefined;
  const cli = await vitestCli();
  let filters: string[];
  if (cli) {
    try {
      filters = cli.parse(['node', 'vitest', 'run', ...read], { run: false }).args;
      cli.matchedCommand?.checkUnknownOptions();
      cli.matchedCommand?.checkOptionValue();
    } catch (e) {
      const message = (e as Error).message.replace(/`/g, '');
      return /^Unknown option/i.test(message)
        ? `${message.replace(/^Unknown option/i, 'unknown option')}: neither an option of this command (npm run ` +
            `conformance -- --help) nor of vitest (npx vitest --help)`
        : `vitest: ${message}`;
    }
  } else {
    const { parseCLI } = await import('vitest/node');
    filters = parseCLI(['vitest', 'run', ...read]).filter;
  }
  const files = scenarioFiles(root);
  const unmatched = filters.filter((f) => !files.some((file) => matches(file, f, root)));
  if (unmatched.length)
    return (
      `${unmatched.map((f) => JSON.stringify(f)).join(', ')}: ${unmatched.length === 1 ? 'matches' : 'match'} no ` +
      `scenario file (a file filter is a folder or part of a path, e.g. scenarios/organization or merge-link; a ` +
      `name pattern goes after -t)`
    );
  return undefined;
}
