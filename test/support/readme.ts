/**
 * The README's example blocks, for the tests that check them against real runs: a block is the
 * fenced code after a `<!-- example: <name> -->` line. Console summaries are compared by shape:
 * what differs from run to run by nature (run ID, seed, port, report folder, records removed) is
 * masked, everything else (lines, check counts, requirement figures, words) must be the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The README's example blocks by name. */
export function readmeExamples(text = README): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/<!-- example: ([\w-]+) -->\n```[a-z]*\n([\s\S]*?)\n```/g)) out.set(m[1]!, m[2]!);
  return out;
}

/** The example block `name`. @throws when the README has none */
export function readmeExample(name: string): string {
  const block = readmeExamples().get(name);
  if (block === undefined) throw new Error(`README.md has no example block "${name}"`);
  return block;
}

/** The summary a run's console ends with: from the last "Conformance run <id> (seed <n>)" line to the next empty line. */
export function consoleSummaryOf(stdout: string): string {
  const lines = stdout.split('\n');
  const start = lines.findLastIndex((l) => /^Conformance run \S+ \(seed \d+\)/.test(l));
  if (start < 0) throw new Error(`no console summary in: ${stdout.slice(-2000)}`);
  const end = lines.findIndex((l, i) => i > start && !l.trim());
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/**
 * A console summary's lines with what differs between runs by nature masked: run ID, seed,
 * ports, report folder, records removed. With `counts`, also the pass/fail split, the counts of
 * failures that follow a cause or are known and the situations the walks reached before they failed
 * (a run with another seed or walk budget fails some walks and not others), but never the total of
 * checks, of situations or the requirement figures.
 */
export function summaryShape(text: string, counts = false): string[] {
  return text.split('\n').map((line) => {
    let l = line
      .replace(/^Conformance run \S+ \(seed \d+\)/, 'Conformance run <run> (seed <seed>)')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/report: \S+\/report\.html/, 'report: <folder>/report.html')
      .replace(/cleanup: \d+\/\d+ sources removed/, 'cleanup: <n>/<n> sources removed')
      .replace(/CONFORMANCE_SEED=\d+/g, 'CONFORMANCE_SEED=<seed>');
    if (counts)
      l = l
        .replace(/: \d+ checks, \d+ passed, \d+ failed,/, (m) =>
          m.replace(/\d+ passed, \d+ failed/, '<n> passed, <n> failed'),
        )
        .replace(/\(\+ [^)]*\)$/, '(+ <more>)')
        .replace(/\d+ known failures?/g, '<n> known failures')
        .replace(
          /walks: reached \d+ of (\d+) situations of the state table \(\d+ judged\)/,
          (_, all) => `walks: reached <n> of ${all} situations of the state table (<n> judged)`,
        );
    return l;
  });
}
