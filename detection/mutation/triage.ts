/**
 * The committed triage of surviving mutants (detection/mutants.md), as the command reads it: every
 * table row whose first cell is a mutant ID (detection/mutation/instrument.ts stableId) and whose
 * second cell is its class:
 *   - **equivalent**: no reply of the measured reference can differ; the row says why;
 *   - **legal**: the mutant's behaviour is one the seeds leave open; the row quotes the open cell
 *     or "not shown" that allows it as `<seed file>, <section>: "<quote>"`, each quote found word
 *     for word in that seed document (specs/seeds/; a quote may join table cells with " | " and
 *     leave words out with "...");
 *   - **gap**: a defect a quoted seed sentence forbids that the suite misses (a survivor a quoted
 *     sentence forbids is a gap, never legal); the row says which check would have to catch it.
 * Equivalent and legal survivors leave the score's denominator; gaps stay in it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRIAGE_FILE = 'detection/mutants.md';

export type TriageClass = 'equivalent' | 'legal' | 'gap';

export interface TriageEntry {
  id: string;
  class: TriageClass;
  /** The row's other cells: the mutation and why. */
  why: string;
  /** 1-based line in the triage file. */
  line: number;
}

export interface Triage {
  entries: Map<string, TriageEntry>;
  /** Rows the command cannot use, each with its line and why. */
  problems: string[];
  /** What resolving the rows against the current code found (resolveTriage): rows moved, rows stale. */
  notes?: string[];
}

/** A mutant ID: file:line:column:mutator:digest. */
export const MUTANT_ID = /^reference\/[\w/.-]+\.ts:\d+:\d+:[A-Za-z]+:[0-9a-f]{6}$/;
const CLASSES = new Set<string>(['equivalent', 'legal', 'gap']);
const SEEDS = ['organization-identity-api.md', 'person-provider-identity-api.md'];

/** The cells of a Markdown table row (a `\|` stays in its cell as `|`). */
export function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Words as a comparison sees them: no code marks, one space between words. */
const plain = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim();

/** The quotes of a legal row that are not found in the seed document they cite, or why the row cites none. */
export function unfoundQuotes(why: string, seedText: (file: string) => string): string[] {
  const cited = [...why.matchAll(/([\w-]+\.md), [^:"]+: "([^"]+)"/g)];
  if (!cited.length) return ['quotes no seed sentence (<seed file>, <section>: "<quote>")'];
  const missing: string[] = [];
  for (const [, file, quote] of cited) {
    if (!SEEDS.includes(file!)) {
      missing.push(`cites ${file}, not a seed document`);
      continue;
    }
    const text = plain(seedText(file!));
    for (const piece of quote!.split(/\s*\|\s*|\s*\.\.\.\s*/).filter(Boolean))
      if (!text.includes(plain(piece))) missing.push(`"${piece}" is not in ${file}`);
  }
  return missing;
}

/** Reads the triage file of the project at `root` (an absent file is an empty triage). */
export function readTriage(root: string, file = TRIAGE_FILE): Triage {
  let text = '';
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    return { entries: new Map(), problems: [] };
  }
  const seeds = new Map<string, string>();
  const seedText = (f: string) => {
    if (!seeds.has(f)) seeds.set(f, readFileSync(join(root, 'specs', 'seeds', f), 'utf8'));
    return seeds.get(f)!;
  };
  const entries = new Map<string, TriageEntry>();
  const problems: string[] = [];
  text.split('\n').forEach((row, i) => {
    if (!row.trim().startsWith('|')) return;
    const [id = '', cls = '', ...rest] = cellsOf(row);
    if (!MUTANT_ID.test(id)) return; // a header, a separator, or another table
    const line = i + 1;
    const why = rest.join(' | ');
    if (!CLASSES.has(cls))
      return void problems.push(`${file}:${line}: ${id}: class "${cls}" is none of equivalent, legal, gap`);
    if (entries.has(id))
      return void problems.push(`${file}:${line}: ${id} is triaged twice (also line ${entries.get(id)!.line})`);
    if (!why.replace(/[`|\s]/g, ''))
      return void problems.push(`${file}:${line}: ${id}: says nothing about why it is ${cls}`);
    // A legal row without a sentence found in the seeds is no triage: its mutant counts as untriaged.
    const unfound = cls === 'legal' ? unfoundQuotes(why, seedText) : [];
    if (unfound.length) return void problems.push(...unfound.map((m) => `${file}:${line}: ${id}: legal, but ${m}`));
    entries.set(id, { id, class: cls as TriageClass, why, line });
  });
  return { entries, problems };
}

/** What a row's mutant is, wherever it sits: file, mutator and digest (the ID without its place). */
const shapeOf = (id: string) => {
  const [file, , , mutator, digest] = id.split(':');
  return `${file}:${mutator}:${digest}`;
};
const place = (id: string) => id.split(':').slice(1, 3).map(Number) as [number, number];
const byPlace = (a: string, b: string) => {
  const [la, ca] = place(a);
  const [lb, cb] = place(b);
  return la - lb || ca - cb;
};

/**
 * The triage keyed by the IDs of `mutants` (the current code's mutants of the files measured): a row
 * names its mutant by ID, or, when its code moved (reformatted, lines added above it), by file,
 * mutator and digest, pairing the rows and the mutants of one shape in the order of their places
 * when they are as many. Rows of those files that name no current mutant are noted as stale.
 */
export function resolveTriage(
  triage: Triage,
  mutants: ReadonlyArray<{ id: string; file: string }>,
): Triage & { notes: string[] } {
  const files = new Set(mutants.map((m) => m.file));
  const current = new Set(mutants.map((m) => m.id));
  const entries = new Map<string, TriageEntry>();
  const rowsByShape = new Map<string, TriageEntry[]>();
  for (const e of triage.entries.values()) {
    if (!files.has(e.id.split(':')[0]!)) continue;
    if (current.has(e.id)) entries.set(e.id, e);
    else rowsByShape.set(shapeOf(e.id), [...(rowsByShape.get(shapeOf(e.id)) ?? []), e]);
  }
  const freeByShape = new Map<string, string[]>();
  for (const m of mutants)
    if (!entries.has(m.id)) freeByShape.set(shapeOf(m.id), [...(freeByShape.get(shapeOf(m.id)) ?? []), m.id]);
  let moved = 0;
  const stale: TriageEntry[] = [];
  for (const [shape, rows] of rowsByShape) {
    const free = (freeByShape.get(shape) ?? []).sort(byPlace);
    if (free.length !== rows.length) {
      stale.push(...rows);
      continue;
    }
    rows.sort((a, b) => byPlace(a.id, b.id)).forEach((row, i) => entries.set(free[i]!, row));
    moved += rows.length;
  }
  const notes = [
    ...(moved ? [`${moved} rows found their mutant by file, mutator and digest (its place moved)`] : []),
    ...stale.map((e) => `${TRIAGE_FILE}:${e.line}: ${e.id} names no mutant of the current code (stale)`),
  ];
  return { entries, problems: triage.problems, notes };
}
