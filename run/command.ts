/**
 * The command-line frame every command of the project shares (commander): `--help` prints the command's own usage with
 * its settings, exit codes and examples; `--version` prints the suite's name and version; a bad argument is one line
 * `<command>: <problem>` and exit code 2.
 *
 * Usage: `const program = command({ name, summary, ... })`, add options with commander's API, then
 * `parseArguments(program)`; the parsed options are `program.opts()`.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';

/** The package's name and version (package.json). */
export const SUITE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export interface CommandDoc {
  /**
   * The npm script, e.g. "conformance" (shown as `npm run conformance -- ...`), or a full invocation for scripts run
   * with tsx.
   */
  name: string;
  /** What the command does, one or two sentences. */
  summary: string;
  /** Settings (environment variables) the command reads, each "NAME  meaning". */
  settings?: string[];
  /** Exit codes and their meaning. */
  exitCodes: Record<number, string>;
  examples: string[];
  /** The invocation shown in the usage line (default `npm run <name> --`). */
  invocation?: string;
}

/** Exit code of a bad argument or setting, shared by every command. */
export const BAD_USAGE = 2;

/** The help text after commander's options list: settings, exit codes, examples. */
function helpAfter(doc: CommandDoc): string {
  const L: string[] = [];
  if (doc.settings?.length)
    L.push('', 'Settings (environment or .env; README, "Settings"):', ...doc.settings.map((s) => `  ${s}`));
  L.push('', 'Exit codes:', ...Object.entries(doc.exitCodes).map(([code, meaning]) => `  ${code.padEnd(4)}${meaning}`));
  L.push('', 'Examples:', ...doc.examples.map((e) => `  ${e}`));
  return `${L.join('\n')}\n`;
}

/** The short name of each program, for its one-line errors. */
const names = new WeakMap<Command, string>();

/** A commander program with the shared --help, --version and error handling. */
export function command(doc: CommandDoc): Command {
  const program = new Command(doc.invocation ?? `npm run ${doc.name} --`)
    .description(doc.summary)
    .version(`${SUITE.name} ${SUITE.version}`, '-V, --version', 'print the suite name and version')
    .helpOption('-h, --help', 'print this usage')
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .addHelpText('after', helpAfter(doc));
  program.showSuggestionAfterError(true);
  names.set(program, doc.name);
  return program;
}

/**
 * Parses the command line (process.argv by default). `--help` and `--version` print and exit 0; an unknown option, a
 * missing value or a bad argument prints one line and exits 2.
 */
export function parseArguments(program: Command, argv: string[] = process.argv.slice(2)): void {
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
      process.exit(0);
    usageError(program, e.message.replace(/^error: /, ''));
  }
}

/**
 * An option argument parser (commander's argParser) for a whole number from `min` to `max`: a bad value is a usage
 * error naming the option, its value and the range.
 */
export const integer = (min: number, max: number) => (raw: string) => {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
  return Number(raw);
};

/** Prints `<command>: <message>` on stderr and exits with code 2. */
export function usageError(program: Command | string, message: string): never {
  const name = typeof program === 'string' ? program : (names.get(program) ?? program.name());
  console.error(`${name}: ${message}`);
  process.exit(BAD_USAGE);
}
