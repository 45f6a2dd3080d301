/**
 * The mutants of the reference's behaviour files, from Stryker's own instrumenter
 * (@stryker-mutator/instrumenter): every mutant of every file is placed in one copy of the file
 * behind a switch (`stryMutAct_9fa48("<n>")`), which the instrumented code turns on when the
 * process's `__STRYKER_ACTIVE_MUTANT__` names it; coverage calls (`stryCov_9fa48`) record which
 * mutants a run reached in `globalThis.__stryker__.mutantCoverage`.
 *
 * Each mutant gets a stable ID from what it is, not from Stryker's run-local number:
 * `<file>:<line>:<column>:<mutator>:<digest>` (line and column 1-based, as Stryker prints them;
 * digest: the first 6 hex digits of the SHA-1 of the replaced and the replacement code, without
 * comments, whitespace and trailing commas: an expression and its first operand start at the same
 * place, and code reformatted or reflowed keeps its digest), so a triage entry
 * (detection/mutants.md) names the same mutant in every run while its file's code is unchanged,
 * and can be found again by file, mutator and digest when only its place moved (triage.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type InstrumentResult, Instrumenter } from '@stryker-mutator/instrumenter';
import { SETTINGS_READERS } from './behaviour.js';

/** One mutant of a behaviour file. */
export interface MutantInfo {
  /** Stable ID: file:line:column:mutator:digest. */
  id: string;
  /** Stryker's number of the mutant in this instrumentation (what `__STRYKER_ACTIVE_MUTANT__` names). */
  switchId: string;
  /** File relative to the project root. */
  file: string;
  /** 1-based line and column of the mutated code's start. */
  line: number;
  column: number;
  /** 1-based end line and column (exclusive), as the mutation testing report schema wants them. */
  endLine: number;
  endColumn: number;
  /** Stryker's mutator name (ConditionalExpression, EqualityOperator, ...). */
  mutator: string;
  /** The source code the mutant replaces, and the code it puts in its place. */
  original: string;
  replacement: string;
}

export interface Instrumented {
  /** The instrumented text of each file (relative path -> text). */
  files: Map<string, string>;
  /** Every mutant, in Stryker's order (file by file, in source order). */
  mutants: MutantInfo[];
}

type StrykerMutant = InstrumentResult['mutants'][number];

/** Stryker's logger interface, quiet but for warnings and errors. */
const QUIET = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (m: string, ...a: unknown[]) => console.warn(`mutation: ${m}`, ...a),
  error: (m: string, ...a: unknown[]) => console.error(`mutation: ${m}`, ...a),
  fatal: (m: string, ...a: unknown[]) => console.error(`mutation: ${m}`, ...a),
};

/** Skips the body of a function whose name is a settings reader (behaviour.ts SETTINGS_READERS). */
const settingsReaders = {
  shouldIgnore(path: unknown): string | undefined {
    const node = (path as { node?: { type?: string; id?: { name?: string } } }).node;
    return node?.type === 'FunctionDeclaration' && node.id?.name && SETTINGS_READERS.has(node.id.name)
      ? `${node.id.name} reads a setting`
      : undefined;
  },
};

/** Offsets of each line's first character in `text`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** Code as the digest reads it: no comments, no whitespace, no trailing commas (the same text for both sides). */
const tokensOf = (code: string) =>
  code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s+/g, '')
    .replace(/,([)\]}])/g, '$1');

/** The stable ID of a mutant (module comment). */
export function stableId(
  m: Pick<MutantInfo, 'file' | 'line' | 'column' | 'mutator' | 'original' | 'replacement'>,
): string {
  const digest = createHash('sha1')
    .update(tokensOf(m.original))
    .update('\0')
    .update(tokensOf(m.replacement))
    .digest('hex')
    .slice(0, 6);
  return `${m.file}:${m.line}:${m.column}:${m.mutator}:${digest}`;
}

function describe(m: StrykerMutant, source: string, starts: number[]): MutantInfo {
  const { start, end } = m.location;
  const original = source.slice(starts[start.line]! + start.column, starts[end.line]! + end.column);
  const info = {
    switchId: m.id,
    file: m.fileName,
    line: start.line + 1,
    column: start.column + 1,
    endLine: end.line + 1,
    endColumn: end.column + 1,
    mutator: m.mutatorName,
    original,
    replacement: m.replacement,
  };
  return { id: stableId(info), ...info };
}

/**
 * Instruments `files` (relative to `root`) with every mutant Stryker generates for them, less
 * those inside settings readers.
 * @throws Error when a file cannot be read or parsed
 */
export async function instrument(root: string, files: string[]): Promise<Instrumented> {
  const sources = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const result = await new Instrumenter(QUIET).instrument(
    files.map((name) => ({ name, mutate: true, content: sources.get(name)! })),
    { plugins: null, excludedMutations: [], ignorers: [settingsReaders] },
  );
  const starts = new Map(files.map((f) => [f, lineStarts(sources.get(f)!)]));
  const mutants = result.mutants
    .filter((m) => m.status !== 'Ignored')
    .map((m) => describe(m, sources.get(m.fileName)!, starts.get(m.fileName)!));
  return { files: new Map(result.files.map((f) => [f.name, f.content])), mutants };
}
