/**
 * The journal of a mutation measure: one JSON line per mutant judged, appended as each run ends,
 * so that a measure cut short (interrupted, or past its time limit) resumes where it stopped.
 * A line is reused only by a measure of the same suite and reference: the same files that a
 * conformance run loads (every file of the checkout but documents, tests, benchmarks, the
 * detection and match-quality commands, by content) and the same run seed; any change to them
 * makes every mutant run again.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { MutantResult } from './result.js';

export interface Journal {
  /** Results of the same project by mutant ID. */
  done: Map<string, Omit<MutantResult, 'mutant'>>;
  append(result: MutantResult): void;
}

/** Files no conformance run loads. */
const NOT_RUN = /^(test|bench|docs|examples|detection|linkage)\/|\.md$/;

/** A digest of the files a conformance run loads (tracked and untracked, not ignored), but `skip`. */
export function projectDigest(root: string, skip: string[] = []): string {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  const hash = createHash('sha256');
  for (const file of out.split('\0').filter(Boolean).sort()) {
    if (NOT_RUN.test(file) || skip.includes(file)) continue;
    let content: Buffer;
    try {
      content = readFileSync(join(root, file));
    } catch {
      continue; // listed by git, deleted in the checkout
    }
    hash.update(file).update('\0').update(content).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Opens (or starts) the journal at `file` for a measure of the project at `root` with `runSeed`. */
export function openJournal(root: string, file: string, runSeed: number): Journal {
  const path = resolve(root, file);
  const project = `${projectDigest(root, [relative(root, path)])}/${runSeed}`;
  const done = new Map<string, Omit<MutantResult, 'mutant'>>();
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // a new journal
  }
  for (const line of text.split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { project: string; id: string; result: Omit<MutantResult, 'mutant'> };
    if (entry.project === project) done.set(entry.id, entry.result);
  }
  mkdirSync(dirname(path), { recursive: true });
  return {
    done,
    append({ mutant, ...result }) {
      appendFileSync(path, `${JSON.stringify({ project, id: mutant.id, result })}\n`);
    },
  };
}
