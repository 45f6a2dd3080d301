/**
 * The values of other people's records this process has seen, so no text can carry them on: redaction
 * (harness/redact-foreign.ts) registers every value it takes out of a reply, and `scrubForeign` masks them wherever
 * they occur in a text (failure messages, notes, the envelope's message and errors), `scrubForeignValue` inside any
 * JSON-able value.
 *
 * Masking is by ownership too: a foreign value is masked only where it stands as a whole token (no letter, digit or
 * underscore touching it on either side) and not inside one of the run's own values (`registerOwn`: every value the run
 * sent, its run ID and seeds). So a seed, a native ID, a replay command or a generated name that happens to contain a
 * foreign value stays intact, while the foreign value standing on its own is masked.
 *
 * Values too short or too generic to identify anyone (codes such as ACTIVE or WORK, single lowercase words such as
 * "person" or "service", numbers of fewer than five digits, strings of fewer than five characters) are not registered:
 * masking them would mangle the suite's own words (a circuit-open message read "to the [REDACTED: foreign] [REDACTED:
 * foreign] failed") and protect nothing. A value the run sent itself is never masked, even where another source holds
 * it too (a namesake of the run's record).
 */
import escapeRegExp from 'escape-string-regexp';

export const FOREIGN_MASK = '[REDACTED: foreign]';

const values = new Set<string>();
/** The masking pattern (null: nothing to mask), undefined until built after a change. */
let pattern: RegExp | null | undefined;
/** The run's own values: texts that contain a foreign value inside one of them are left alone there. */
const ownValues = new Set<string>();
/** Per foreign value, the own values containing it (recomputed when either set grows). */
let ownContaining = new Map<string, string[]>();

/** True when a value identifies enough to be worth masking wherever it appears. */
function worthMasking(s: string): boolean {
  const t = s.trim();
  if (t.length < 5) return false;
  if (/^[A-Z0-9_]{1,16}$/.test(t) && /[A-Z]/.test(t) && !/\d/.test(t)) return false; // a code: ACTIVE, WORK, MAILING
  if (/^(true|false|null|undefined)$/i.test(t)) return false;
  if (/^\p{Ll}+$/u.test(t)) return false; // a word: names are capitalised, IDs carry digits or separators
  return true;
}

/** Calls `add` with every string leaf (and long number) of a JSON-able value. */
function eachLeaf(value: unknown, add: (s: string) => void): void {
  const walk = (v: unknown, depth: number): void => {
    if (depth > 40) return;
    if (typeof v === 'string') add(v);
    else if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) >= 100000) add(String(v));
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(value, 0);
}

/** Registers every string leaf (and long number) of a value taken out of a reply as foreign. */
export function registerForeign(value: unknown, except: ReadonlySet<string> = new Set()): void {
  eachLeaf(value, (s) => {
    if (!values.has(s) && !except.has(s) && worthMasking(s)) {
      values.add(s);
      pattern = undefined;
      ownContaining = new Map();
    }
  });
}

/**
 * Registers every string leaf (and long number) of a value as the run's own: what it sent (request contents), its run
 * ID, its seeds. A foreign value inside one of them is never masked there.
 */
export function registerOwn(value: unknown): void {
  eachLeaf(value, (s) => {
    if (!ownValues.has(s) && worthMasking(s)) {
      ownValues.add(s);
      ownContaining = new Map();
      if (values.has(s)) pattern = undefined;
    }
  });
}

/** Forgets every registered value (tests). */
export function clearForeignValues(): void {
  values.clear();
  ownValues.clear();
  ownContaining = new Map();
  pattern = undefined;
}

/** Characters that make a match part of a longer token: a foreign value touching one is not standing on its own. */
const TOKEN = String.raw`\p{L}\p{N}_`;

/** Own values that contain `foreign` (the only ones that can shelter one of its occurrences). */
function containing(foreign: string): string[] {
  let list = ownContaining.get(foreign);
  if (!list) {
    list = [...ownValues].filter((o) => o.length > foreign.length && o.includes(foreign));
    ownContaining.set(foreign, list);
  }
  return list;
}

/** True when the occurrence of `foreign` at `at` in `text` lies inside an occurrence of an own value. */
function insideOwn(text: string, foreign: string, at: number): boolean {
  for (const own of containing(foreign))
    for (let k = own.indexOf(foreign); k >= 0; k = own.indexOf(foreign, k + 1))
      if (at - k >= 0 && text.startsWith(own, at - k)) return true;
  return false;
}

/** A text with every registered foreign value masked where it stands as a whole token outside the run's own values. */
export function scrubForeign(text: string): string {
  if (!values.size || !text) return text;
  if (pattern === undefined) {
    const masked = [...values].filter((v) => !ownValues.has(v));
    // An empty alternation would match the empty string everywhere.
    pattern = masked.length
      ? new RegExp(
          `(?<![${TOKEN}])(?:${masked
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join('|')})(?![${TOKEN}])`,
          'gu',
        )
      : null;
  }
  if (pattern === null) return text;
  return text.replace(pattern, (match, at: number) => (insideOwn(text, match, at) ? match : FOREIGN_MASK));
}

/** A deep copy of a JSON-able value with every string passed through scrubForeign. */
export function scrubForeignValue<T>(value: T, depth = 0): T {
  if (!values.size || depth > 40) return value;
  if (typeof value === 'string') return scrubForeign(value) as T;
  if (Array.isArray(value)) return value.map((v) => scrubForeignValue(v, depth + 1)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubForeignValue(v, depth + 1);
    return out as T;
  }
  return value;
}

/**
 * Clears a thrown error of every registered foreign value, in place: its message and stack, the actual and expected
 * values an assertion library attached (vitest prints and diffs them), its matcher result and its cause. Called on
 * whatever a check throws, before any reporter sees it.
 */
export function scrubError(e: unknown, depth = 0): void {
  if (!values.size || !(e instanceof Error) || depth > 5) return;
  const x = e as Error & Record<string, unknown>;
  x.message = scrubForeign(x.message);
  if (typeof x.stack === 'string') x.stack = scrubForeign(x.stack);
  for (const k of ['actual', 'expected', 'diff', 'reason']) if (k in x) x[k] = scrubForeignValue(x[k]);
  const m = x.matcherResult as Record<string, unknown> | undefined;
  if (m && typeof m === 'object')
    for (const k of ['actual', 'expected', 'message'])
      if (k in m)
        m[k] = typeof m[k] === 'function' ? scrubForeign(String((m[k] as () => string)())) : scrubForeignValue(m[k]);
  if (x.cause) scrubError(x.cause, depth + 1);
}
