/**
 * The certification profile of an evidence bundle: stricter than the gate of an ordinary run. A run is certified only
 * when, for every service it targets:
 * - the run passed (the gate's verdict, report/summary.ts);
 * - no check was skipped or omitted, but for the checks a configured deployment cannot run safely (irreversible on
 *   shared data, harness/irreversible.ts: the person data-source checks), which the profile declares with why and
 *   lists, check by check, instead of failing on them;
 * - no failure was accepted as known (a known-failures list: report/known-failures.ts);
 * - every MUST requirement has a check that ran (an `uncovered` or `not-run` MUST requirement fails; an `untestable`
 *   one, which no black-box check can observe, is listed with its reason);
 * - the checks that ran are exactly the suite's checks for the run's settings: the catalogue the suite's own collection
 *   gives (`vitest list` of the same suite, same settings), check for check, so that a file or name filter, a shard or
 *   a file that failed to load cannot pass for a full run.
 * Services the run does not target (not configured) are outside the certification and named so.
 */
import { irreversibleKindOf } from '../../harness/irreversible.js';
import type { Summary } from '../summary.js';

/**
 * One check of the suite's catalogue: its test file and its name as vitest collects it (`<title> [<requirement IDs>]`).
 */
export interface CatalogueCheck {
  file: string;
  name: string;
}

export interface Certification {
  profile: 'certification';
  passed: boolean;
  /** The services certified (those the run targets). */
  services: string[];
  /** Why it did not pass, one line each (empty when it passed). */
  reasons: string[];
  /** Checks of the catalogue for the certified services, and checks that ran. */
  catalogueChecks: number;
  checksRun: number;
  /** MUST requirements no black-box check can observe, with the reason (listed, not failing). */
  untestableMust: Array<{ id: string; reason: string }>;
  /**
   * Checks omitted because a configured deployment cannot run them safely (irreversible on shared data), each with its
   * requirements, why, and the profile member that would run them (listed, not failing).
   */
  notRunOnSharedData: Array<{ checkId: string; requirements: string[]; why: string; member: string }>;
}

const nameOf = (c: { title: string; verifies: string[] }) => `${c.title} [${c.verifies.join(' ')}]`;
const list = (ids: string[], max = 5) =>
  `${ids.slice(0, max).join(', ')}${ids.length > max ? `, and ${ids.length - max} more` : ''}`;

/**
 * Judges a finished run by the certification profile.
 * @param catalogue the suite's checks for the run's settings (every service); undefined when the collection failed
 * @param catalogueProblem why the catalogue could not be collected, if it could not
 */
export function certify(s: Summary, catalogue: CatalogueCheck[] | undefined, catalogueProblem?: string): Certification {
  const services = s.run.targets.filter((t) => t.status !== 'not configured').map((t) => t.service as string);
  const inScope = (service: string) => services.includes(service);
  const serviceOfFile = (file: string) => /(?:^|\/)scenarios\/([^/]+)\//.exec(file)?.[1] ?? '';
  const checks = s.checks.filter((c) => inScope(c.service));
  const reasons: string[] = [];
  if (!services.length) reasons.push('the run targets no service');
  if (s.gate.verdict !== 'pass') reasons.push(`the run did not pass (${s.gate.verdict.toUpperCase()})`);
  const skipped = checks.filter((c) => c.verdict === 'skip').map((c) => c.checkId);
  if (skipped.length) reasons.push(`${skipped.length} check(s) skipped: ${list(skipped)}`);
  const unsafe = checks.flatMap((c) => {
    const kind = c.verdict === 'omit' ? irreversibleKindOf(c.note) : undefined;
    return kind ? [{ checkId: c.checkId, requirements: c.verifies, why: kind.why, member: kind.member }] : [];
  });
  const listed = new Set(unsafe.map((u) => u.checkId));
  const omitted = checks.filter((c) => c.verdict === 'omit' && !listed.has(c.checkId)).map((c) => c.checkId);
  if (omitted.length) reasons.push(`${omitted.length} check(s) omitted: ${list(omitted)}`);
  const known = [...s.gate.expected, ...s.gate.pending].map((k) => k.checkId);
  if (known.length)
    reasons.push(
      `${known.length} known failure(s) accepted by ${s.gate.knownFailuresFile ?? 'a known-failures list'}: ` +
        `${list(known)}`,
    );
  const must = s.requirements.filter((r) => inScope(r.service) && r.level === 'MUST');
  const unchecked = must.filter((r) => r.outcome === 'uncovered' || r.outcome === 'not-run').map((r) => r.id);
  if (unchecked.length)
    reasons.push(`${unchecked.length} MUST requirement(s) without a check that ran: ${list(unchecked)}`);
  const expected = (catalogue ?? []).filter((c) => inScope(serviceOfFile(c.file)));
  if (!catalogue)
    reasons.push(`the suite's check catalogue could not be collected (${catalogueProblem ?? 'unknown reason'})`);
  else {
    const key = (file: string, name: string) => `${file}\u0000${name}`;
    const count = new Map<string, number>();
    for (const c of expected) count.set(key(c.file, c.name), (count.get(key(c.file, c.name)) ?? 0) + 1);
    const extra: string[] = [];
    for (const c of checks) {
      const k = key(c.file, nameOf(c));
      const n = count.get(k) ?? 0;
      if (n > 0) count.set(k, n - 1);
      else extra.push(c.checkId);
    }
    const missing = [...count].flatMap(([k, n]) => Array.from({ length: n }, () => k.split('\u0000').join(': ')));
    if (checks.length !== expected.length || missing.length || extra.length)
      reasons.push(
        `${checks.length} check(s) ran where the catalogue has ${expected.length}` +
          (missing.length ? `; not run: ${list(missing, 3)}` : '') +
          (extra.length ? `; not in the catalogue: ${list(extra, 3)}` : ''),
      );
  }
  return {
    profile: 'certification',
    passed: reasons.length === 0,
    services,
    reasons,
    catalogueChecks: expected.length,
    checksRun: checks.length,
    notRunOnSharedData: unsafe,
    untestableMust: must
      .filter((r) => r.outcome === 'untestable')
      .map((r) => ({ id: r.id, reason: r.untestable ?? '' })),
  };
}

/**
 * The line that lists the checks the certification did not ask for on shared data (console and verifier), or
 * undefined when there are none.
 */
export function notRunOnSharedDataLine(c: Pick<Certification, 'notRunOnSharedData'>): string | undefined {
  const u = c.notRunOnSharedData;
  if (!u.length) return undefined;
  const members = [...new Set(u.map((x) => x.member))].map((m) => `profile ${m}: true`);
  return (
    `${u.length} check(s) not run on shared data, listed in manifest.json and requirements.csv, not failing: ` +
    `${list(
      u.map((x) => x.checkId),
      3,
    )}; ${[...new Set(u.map((x) => x.why))].join('; ')} (${members.join(', ')} runs them)`
  );
}
