/**
 * The known-failures file of one deployment (setting CONFORMANCE_KNOWN_FAILURES, a JSON path):
 *
 *   { "deployment": "acme-staging",
 *     "entries": [
 *       { "id": "ORG-SEARCH-THRESHOLD", "reason": "vendor ticket ACME-123" },
 *       { "id": "organization/search/a-new-check", "reason": "added in suite 0.3", "pending": true } ] }
 *
 *       { "id": "ORG-MERGE-EFFECT", "reason": "vendor bug", "ticket": "ACME-123", "expires": "2026-12-31" },
 *
 * `id` is a requirement ID or a check ID of the suite: one that names neither stops the run (unknownEntries; exit code
 * 2, with the ID meant). A listed failure is reported as expected and does not gate. `ticket` names the issue that
 * tracks it (reports show it); `expires` (a date, YYYY-MM-DD) ends the excuse: from the day after, the entry is
 * expired, its failures gate again and the reports say so (the ticket should have been fixed, or the entry renewed). An
 * entry is flagged as an unexpected pass (remove it, so the list does not go stale) only when every check it covers
 * passed: for a check ID that check; for a requirement ID every check of the run that cites it or failed it (omitted
 * ones aside), at least one of them, in a run that selected all of its service's checks. One passing check citing a
 * requirement that other checks still fail is no reason to remove it: removing it would fail the next run. A `pending`
 * entry covers a check new to the suite: it does not gate until it has passed on this deployment once; the checks that
 * did are kept in the history file next to the list (`<name>.passed.json`), which the run updates (keep it with the
 * list, e.g. in CI cache).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { KNOWN_FAILURES_SETTING, SettingsError, knownFailuresFileSetting } from '../harness/config.js';
import { distance } from 'fastest-levenshtein';
import { didYouMean } from '../harness/setting-names.js';
import type { CheckResult } from './results.js';

export const KNOWN_FAILURES_ENV = KNOWN_FAILURES_SETTING;

const Entry = z.strictObject({
  id: z.string().min(1),
  reason: z.string().min(1),
  pending: z.boolean().optional(),
  ticket: z.string().min(1).optional(),
  expires: z.iso.date().optional(),
});
const KnownFailuresFile = z.strictObject({ deployment: z.string().optional(), entries: z.array(Entry) });
export type KnownFailureEntry = z.infer<typeof Entry>;

export interface KnownFailures {
  file: string;
  deployment?: string;
  entries: KnownFailureEntry[];
  /** Check IDs that have passed on this deployment at least once (from the history file). */
  passedOnce: Set<string>;
  historyFile: string;
}

export const historyPath = (file: string) => file.replace(/(\.json)?$/, '.passed.json');

/**
 * Reads the known-failures file (default: the one CONFORMANCE_KNOWN_FAILURES names, harness/config.ts), or undefined
 * when none is named.
 * @throws SettingsError when the file is missing or malformed (exit code 2).
 */
export function loadKnownFailures(file: string | undefined = knownFailuresFileSetting()): KnownFailures | undefined {
  if (!file) return undefined;
  if (!existsSync(file)) throw new SettingsError(KNOWN_FAILURES_ENV, 'the path of a known-failures JSON file', file);
  let parsed: ReturnType<typeof KnownFailuresFile.safeParse>;
  try {
    parsed = KnownFailuresFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    throw new SettingsError(KNOWN_FAILURES_ENV, `a JSON file (${(e as Error).message})`, file);
  }
  if (!parsed.success)
    throw new SettingsError(
      KNOWN_FAILURES_ENV,
      `{ deployment?, entries: [{ id, reason, pending?, ticket?, expires? (YYYY-MM-DD) }] } ` +
        `(${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`,
      file,
    );
  const historyFile = historyPath(file);
  let passedOnce: string[] = [];
  if (existsSync(historyFile)) {
    try {
      passedOnce = (JSON.parse(readFileSync(historyFile, 'utf8')) as { passed?: string[] }).passed ?? [];
    } catch {
      throw new SettingsError(
        KNOWN_FAILURES_ENV,
        `a readable history file next to it (${historyFile} is not JSON)`,
        file,
      );
    }
  }
  return {
    file,
    deployment: parsed.data.deployment,
    entries: parsed.data.entries,
    passedOnce: new Set(passedOnce),
    historyFile,
  };
}

/**
 * Entries that name no requirement and no check of the suite: a misspelt ID would excuse nothing and the run would stay
 * red with no hint why. Each comes with the ID meant, when one is close.
 * @param requirementIds every requirement ID of the catalogues
 * @param checkIds every check ID of the suite (run/check-ids.ts); without it, only requirement IDs are known
 */
export function unknownEntries(
  known: Pick<KnownFailures, 'entries'>,
  requirementIds: ReadonlySet<string>,
  checkIds: ReadonlySet<string> = new Set(),
): Array<{ id: string; suggestion?: string }> {
  const all = [...requirementIds, ...checkIds];
  return known.entries
    .filter((e) => !requirementIds.has(e.id) && !checkIds.has(e.id))
    .map((e) => {
      const suggestion = (all.length ? didYouMean(e.id, all) : undefined) ?? checkMeant(e.id, checkIds);
      return { id: e.id, ...(suggestion ? { suggestion } : {}) };
    });
}

/**
 * The check ID a shortened or misspelt one most likely means: check IDs are long (a slug of the title), so one whose
 * beginning is within 3 edits of the whole entry, the closest such.
 */
function checkMeant(id: string, checkIds: ReadonlySet<string>): string | undefined {
  if (!id.includes('/')) return undefined;
  let best: { id: string; d: number } | undefined;
  for (const c of checkIds) {
    const d = distance(id, c.slice(0, id.length));
    if (d <= 3 && (!best || d < best.d)) best = { id: c, d };
  }
  return best?.id;
}

/** True when an entry's `expires` date has passed on `today` (YYYY-MM-DD, UTC): the entry excuses nothing any more. */
export const isExpired = (e: KnownFailureEntry, today: string): boolean => e.expires !== undefined && e.expires < today;

/** An expired entry in one sentence, as every report says it. */
export function expiredText(x: NonNullable<Gate['expired']>[number]): string {
  const n = x.checks.length;
  return `${x.entry} expired on ${x.expires}${x.ticket ? ` (ticket ${x.ticket})` : ''}: it excuses nothing now${
    n ? `, and the ${n === 1 ? 'check' : `${n} checks`} it covered that failed gate again` : ''
  }; fix it, or renew or remove the entry (listed because: ${x.reason})`;
}

/** Today's date, YYYY-MM-DD in UTC: the day `expires` dates are compared with. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * How the gate judged the run: fail (exit code 1) when a check gates; else incomplete (exit code 5, run/outcome.ts)
 * when a check could not judge because the deployment did not answer; else pass.
 */
export interface Gate {
  verdict: 'pass' | 'fail' | 'incomplete';
  knownFailuresFile?: string;
  deployment?: string;
  /**
   * Checks that fail the gate: an error (other than could-not-judge), or a failure of at least one MUST requirement not
   * listed.
   */
  gating: string[];
  /** Checks that could not judge: the deployment did not answer (after the retry budget); the run is incomplete. */
  incomplete: string[];
  /** Failing checks whose failed requirements are all EXPECT level (reported, not gating). */
  expectOnly: string[];
  /** Listed failures that failed as expected (with the entry's ticket, when it names one). */
  expected: Array<{ checkId: string; entry: string; reason: string; ticket?: string }>;
  /**
   * Entries past their `expires` date: they excuse nothing, so the failing checks they would cover (`checks`) gate
   * again (schema 6).
   */
  expired?: Array<{ entry: string; reason: string; expires: string; ticket?: string; checks: string[] }>;
  /**
   * Entries every check they cover passed: remove them from the list (`checks`: the checks that passed, at least one).
   */
  unexpectedPasses: Array<{ entry: string; reason: string; checks: string[] }>;
  /** Pending checks that have not passed here yet and did not pass now. */
  pending: Array<{ checkId: string; entry: string; reason: string }>;
  /** Pending checks that passed for the first time in this run: they gate from now on. */
  graduated: string[];
}

const failing = (c: CheckResult) => c.verdict === 'fail' || c.verdict === 'error';

/** What the judgement needs to know of the run besides its checks. */
export interface JudgeOptions {
  /**
   * True when the run selected only part of the checks that could cover a requirement (a file or name filter, a shard):
   * a requirement entry is then never called an unexpected pass, because the checks left out may still fail it.
   */
  partial?: (requirementId: string) => boolean;
  /** The day entries' `expires` dates are compared with (YYYY-MM-DD; default today in UTC). */
  today?: string;
}

/**
 * Judges the run: which failing checks gate, which are expected or pending, which listed entries every covered check
 * passed (unexpected passes).
 * @param level requirement ID -> MUST or EXPECT
 */
export function judge(
  checks: CheckResult[],
  level: (id: string) => string | undefined,
  known?: KnownFailures,
  options: JudgeOptions = {},
): Gate {
  const gate: Gate = {
    verdict: 'pass',
    knownFailuresFile: known?.file,
    deployment: known?.deployment,
    gating: [],
    incomplete: [],
    expectOnly: [],
    expected: [],
    expired: [],
    unexpectedPasses: [],
    pending: [],
    graduated: [],
  };
  const today = options.today ?? todayUtc();
  // An expired entry excuses nothing: its failures are judged as if it were not listed.
  const lapsed = (known?.entries ?? []).filter((e) => isExpired(e, today));
  const entries = (known?.entries ?? []).filter((e) => !isExpired(e, today));
  const ticketOf = (e: KnownFailureEntry) => (e.ticket ? { ticket: e.ticket } : {});
  const byCheck = (c: CheckResult) => entries.find((e) => e.id === c.checkId);
  for (const c of checks) {
    const own = byCheck(c);
    if (own?.pending) {
      if (c.verdict === 'pass') {
        if (!known!.passedOnce.has(c.checkId)) gate.graduated.push(c.checkId);
        continue;
      }
      if (failing(c) && !known!.passedOnce.has(c.checkId)) {
        gate.pending.push({ checkId: c.checkId, entry: own.id, reason: own.reason });
        continue;
      }
    }
    if (!failing(c)) continue;
    if (own && !own.pending) {
      gate.expected.push({ checkId: c.checkId, entry: own.id, reason: own.reason, ...ticketOf(own) });
      continue;
    }
    if (c.verdict === 'error') {
      (c.couldNotJudge ? gate.incomplete : gate.gating).push(c.checkId);
      continue;
    }
    const failed = c.failedRequirements.length ? c.failedRequirements : c.verifies;
    const unlisted = failed.filter((id) => !entries.some((e) => !e.pending && e.id === id));
    if (!unlisted.length) {
      for (const id of failed) {
        const e = entries.find((x) => !x.pending && x.id === id)!;
        gate.expected.push({ checkId: c.checkId, entry: id, reason: e.reason, ...ticketOf(e) });
      }
      continue;
    }
    if (unlisted.some((id) => level(id) === 'MUST')) gate.gating.push(c.checkId);
    else gate.expectOnly.push(c.checkId);
  }
  for (const e of entries) {
    if (e.pending) continue;
    const covered = coveredBy(e.id, checks);
    const isCheck = checks.some((c) => c.checkId === e.id);
    if (!isCheck && options.partial?.(e.id)) continue;
    if (covered.length && covered.every((c) => c.verdict === 'pass'))
      gate.unexpectedPasses.push({ entry: e.id, reason: e.reason, checks: covered.map((c) => c.checkId) });
  }
  for (const e of lapsed)
    gate.expired!.push({
      entry: e.id,
      reason: e.reason,
      expires: e.expires!,
      ...ticketOf(e),
      checks: coveredBy(e.id, checks)
        .filter(failing)
        .map((c) => c.checkId),
    });
  gate.verdict = gate.gating.length ? 'fail' : gate.incomplete.length ? 'incomplete' : 'pass';
  return gate;
}

/**
 * The checks a known-failures entry covers, omitted ones aside: the check of that ID, or every check that cites the
 * requirement or failed it (a check can fail a requirement it does not cite, at a set-up step: the root cause).
 */
export function coveredBy(id: string, checks: CheckResult[]): CheckResult[] {
  return checks.filter(
    (c) => c.verdict !== 'omit' && (c.checkId === id || c.verifies.includes(id) || c.failedRequirements.includes(id)),
  );
}

/** Adds this run's passing pending checks to the history file, so they gate from now on. */
export function recordPasses(known: KnownFailures, gate: Gate, runId: string): void {
  if (!gate.graduated.length) return;
  const passed = [...new Set([...known.passedOnce, ...gate.graduated])].sort();
  writeFileSync(
    known.historyFile,
    `${JSON.stringify({ deployment: known.deployment, updatedBy: runId, passed }, null, 2)}\n`,
  );
}
