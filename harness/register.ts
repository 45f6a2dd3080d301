/**
 * Registration of checks with vitest: `scenario(service, area).check(title, verifies, body)` registers one concurrent
 * vitest test that cites the requirement IDs it verifies (in its title and metadata), runs its body with a Faker seeded
 * from the run seed and its stable ID, and leaves a verdict (pass, fail, error, skip, omit) and its exchanges for the
 * reporters. Deliberately thin, like test262's harness.
 */
import { type TestContext, inject, test } from 'vitest';
import { relative } from 'node:path';
import type { Requirement, ServiceName } from '../specs/common/model.js';
import { fnv1a, seededFaker, testSeed } from '../generators/seed.js';
import { Check, StopCheck, catalogueOf } from './check.js';
import { labelForAllure } from './allure.js';
import { explainFailure } from './failure.js';
import { scrubError } from './foreign-values.js';
import { GuardRefusal } from './guard.js';
import { recordCheck } from './record.js';
import { runInterrupt } from './interrupt.js';
import { INTERRUPTED } from './outgoing.js';
import { type RunVariant, clientFor, runContext, runInfo } from './targets.js';
import {
  type CheckDeclaration,
  type CheckMeta,
  ConformanceFailure,
  CouldNotJudge,
  INTERRUPTED_NOTE,
  type Verdict,
} from './verdict.js';
import { declareListed } from './check-list.js';
import { IRREVERSIBLE } from './irreversible.js';

/**
 * A check's ID part as the registration keeps it: its words, long ones cut to 90 characters plus a hash of the whole,
 * so two IDs that differ only at the end never share one (IDs key seeds, baselines, known-failure lists and exchange
 * files).
 */
export function shortId(full: string): string {
  return full.length <= 100 ? full : `${full.slice(0, 90)}-${fnv1a(full).toString(16).padStart(8, '0')}`;
}

/** A text's words as an ID: lower case, letters and digits, joined by dashes. */
const kebab = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The ID part a title gives a check that names none (harness/register.ts CheckOptions.id). */
export const slug = (text: string): string => shortId(kebab(text));

function classify(
  e: unknown,
  verifies: string[],
): { verdict: Verdict; failed?: string[]; note?: string; couldNotJudge?: boolean } {
  if (e instanceof StopCheck) return { verdict: e.verdict, note: e.reason };
  if (e instanceof ConformanceFailure) return { verdict: 'fail', failed: e.requirements };
  if (e instanceof CouldNotJudge) return { verdict: 'error', note: e.message, couldNotJudge: true };
  if (e instanceof GuardRefusal) return { verdict: 'error', note: e.message };
  if (e instanceof Error && (e.name === 'AssertionError' || 'matcherResult' in e))
    return { verdict: 'fail', failed: verifies };
  return { verdict: 'error', note: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

/**
 * True when a check ended because the run was interrupted, not by a judgement: the run's signal is aborted and the
 * check did not fail on replies it got in full (a failure judged on a reply the interrupt cut off, or anything else
 * thrown then, is no finding about the deployment).
 */
export function interruptedBy(caught: unknown, signal: AbortSignal, t: Pick<Check, 'exchanges'> | undefined): boolean {
  if (!signal.aborted || caught instanceof StopCheck) return false;
  if (!(caught instanceof ConformanceFailure)) return true;
  return (t?.exchanges ?? []).some((e) => e.error?.startsWith(INTERRUPTED));
}

/** Queue priority of a chain check's requests, and of the longest chains' (CheckOptions.chain; others 0). */
const CHAIN_PRIORITY = 1;
const LONGEST_CHAIN_PRIORITY = 2;

/** Least share of its time limit a check may send requests in. */
const LEAST_SENDING_SHARE = 0.5;
/**
 * Time kept before a check's time limit, ms: an attempt under way ends at most ATTEMPT_GRACE_MS (5 s) after the time to
 * send (harness/transport.ts), so the check ends 5 s before its limit.
 */
const SEND_MARGIN_MS = 10000;

/**
 * When a check that began at `begun` stops sending (Check.sendBy): its time limit `limitMs` less SEND_MARGIN_MS, at
 * least half the limit. No limit (0): never.
 */
export function sendBy(begun: number, limitMs: number): number {
  if (!(limitMs > 0)) return Number.POSITIVE_INFINITY;
  return begun + Math.max(limitMs * LEAST_SENDING_SHARE, limitMs - SEND_MARGIN_MS);
}

export interface CheckOptions {
  /**
   * The check's ID within its area (`<service>/<area>/<id>`), written with the check so that rewording its title keeps
   * it (known-failures lists, baselines and exchange files key on it); default: its title's slug.
   */
  id?: string;
  /** Run this check only when the profile enables creating data sources on the target. */
  createsDataSources?: boolean;
  /**
   * The check's requests mostly follow one another (a walk, a chain of posts each judged before the next): they go
   * first in the queue for a place in flight, so the check is not held up behind the bursts of checks that send many
   * requests at once. `'longest'`: a chain that is the run's longest (the generated walks), whose requests go before
   * those of the other chains.
   */
  chain?: boolean | 'longest';
}

export type CheckBody = (t: Check) => Promise<void>;

/**
 * Declares the checks of one area of one service.
 * @param service which service's client and requirements the checks use
 * @param area file-level area (envelope, search, lifecycle, ...), used in check IDs and reports
 * @throws Error at registration when a check cites no requirement, a requirement of another service, or repeats a check
 *   ID (suite bugs)
 */
export function scenario(service: ServiceName, area: string) {
  const catalogue = catalogueOf(service);
  // Check IDs this registrar gave out: a repeat (two titles with one ID) is a suite bug.
  const registered = new Set<string>();
  function check(title: string, verifies: string[], body: CheckBody, options: CheckOptions = {}): void {
    if (!verifies.length) throw new Error(`check "${title}" cites no requirement`);
    for (const id of verifies)
      if (!catalogue.has(id))
        throw new Error(`check "${title}" cites ${id}, which is not a requirement of the ${service} service`);
    if (options.id !== undefined && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(options.id))
      throw new Error(`check "${title}": ID ${options.id} is not lower-case words and digits joined by dashes`);
    const checkId = `${service}/${area}/${options.id !== undefined ? shortId(options.id) : slug(title)}`;
    if (registered.has(checkId))
      throw new Error(`check "${title}" repeats check ID ${checkId}: give it a distinct title`);
    registered.add(checkId);
    const declared: CheckDeclaration = { checkId, service, area, verifies, title };
    if (declareListed(declared)) return;
    const provided = inject('conformance');
    const only = provided?.only;
    const cites = (ids: string[]) => verifies.some((id) => ids.includes(id));
    // Detection: once per variant whose requirements the check cites (every check for a variant without `only`); a
    // check cited by none is declared skipped (sends nothing).
    const variants = provided?.variants ? provided.variants.filter((v) => !v.only || cites(v.only)) : [undefined];
    if ((only && !cites(only)) || !variants.length) {
      test.skip(`${title} [${verifies.join(' ')}]`, { meta: { declared } }, () => {});
      return;
    }
    for (const variant of variants) {
      const name = `${title} [${verifies.join(' ')}]${variant ? ` {${variant.name}}` : ''}`;
      test.concurrent(name, { meta: { declared } }, (ctx: TestContext) =>
        runCheck(ctx, { declared, catalogue, body, options, variant }),
      );
    }
  }
  // The registrar knows its service, so shared rules look their requirements up by role (specs/services.ts
  // requirementFor).
  return { check: Object.assign(check, { service }) };
}

/** One registered run of a check: what it is, its service's requirements, its body and options, its variant. */
interface Registered {
  declared: CheckDeclaration;
  catalogue: Map<string, Requirement>;
  body: CheckBody;
  options: CheckOptions;
  variant: RunVariant | undefined;
}

/** Runs a check as its vitest test: its verdict and failure in the test's meta, its exchanges recorded. */
async function runCheck(ctx: TestContext, r: Registered): Promise<void> {
  const { checkId, service, area, verifies } = r.declared;
  const begun = Date.now();
  const meta: CheckMeta = { checkId, service, area, verifies };
  ctx.task.meta.check = meta;
  if (r.variant) ctx.task.meta.variant = r.variant.name;
  const info = runInfo();
  let t: Check | undefined;
  try {
    t = openCheck(ctx, r, begun);
    await r.body(t);
    meta.verdict = 'pass';
    if (t.notes.length) meta.note = t.notes.join('\n');
  } catch (caught) {
    const { error, skip } = failed(meta, caught, t, r.catalogue);
    if (skip) ctx.skip(skip);
    throw error;
  } finally {
    if (t) recordCheck(meta, t, info.exchanges);
    else labelForAllure(meta, []);
  }
}

/**
 * The check's context: its client, profile, seeded Faker, deadline and interrupt signal.
 * @throws StopCheck 'omit' when the service is not configured, the profile disables every expectation it cites, or it
 *   creates data sources and the profile does not allow it
 */
function openCheck(ctx: TestContext, { declared, catalogue, options, variant }: Registered, begun: number): Check {
  const { checkId, service, verifies } = declared;
  const info = runInfo();
  const profile = variant?.profile ?? info.profile;
  const client = clientFor(service as ServiceName, variant);
  if (!client) throw new StopCheck('omit', `${service} service not configured for this run`);
  const disabled = verifies.filter(
    (id) => profile.disabledExpectations.includes(id) && catalogue.get(id)?.level === 'EXPECT',
  );
  // A check citing only switched-off expectations is not applicable; one citing others judges those.
  if (disabled.length === verifies.length) throw new StopCheck('omit', `profile disables ${disabled.join(', ')}`);
  if (options.createsDataSources && !profile.createDataSources)
    throw new StopCheck('omit', IRREVERSIBLE.dataSources.note);
  const t = new Check(
    service as ServiceName,
    verifies,
    seededFaker(testSeed(info.seed, checkId)),
    client,
    profile,
    runContext(variant),
    relative(process.cwd(), ctx.task.file.filepath),
  );
  t.disabled = new Set(disabled);
  t.sendBy = sendBy(begun, ctx.task.timeout);
  // Aborted when the run is cancelled (run/vitest/global-setup.ts, on an interrupt).
  t.signal = runInterrupt();
  if (options.chain) t.priority = options.chain === 'longest' ? LONGEST_CHAIN_PRIORITY : CHAIN_PRIORITY;
  return t;
}

/**
 * What a check threw, as its verdict, note and failure in `meta`; returns the error the test throws and, for a skip or
 * an omission, the test's skip note.
 */
function failed(
  meta: CheckMeta,
  caught: unknown,
  t: Check | undefined,
  rules: Map<string, Requirement>,
): { error: unknown; skip?: string } {
  // Nothing a check throws may quote other people's data into a report or the console.
  scrubError(caught);
  // A failure citing only expectations the profile switches off is not this deployment's to answer for.
  const thrown = interruptedBy(caught, runInterrupt(), t)
    ? new StopCheck('skip', INTERRUPTED_NOTE)
    : caught instanceof ConformanceFailure && t && caught.requirements.every((id) => t.disabled.has(id))
      ? new StopCheck('omit', `stopped at ${caught.requirements.join(', ')}, which the profile disables`)
      : caught;
  // The failure's text for every report: rule, expected, got, exchange; no stack frames (harness/failure.ts).
  const { error: e, report } = explainFailure(thrown, {
    verifies: meta.verifies,
    rules,
    exchanges: t?.exchanges ?? [],
    ...(t ? { judged: t.judgedExchange() } : {}),
  });
  const c = classify(e, meta.verifies);
  meta.verdict = c.verdict;
  if (c.couldNotJudge) meta.couldNotJudge = true;
  if (c.failed) meta.failedRequirements = c.failed;
  if (report) meta.failure = report;
  if (c.note || t?.notes.length) meta.note = c.note ?? t!.notes.join('\n');
  return { error: e, ...(c.verdict === 'skip' || c.verdict === 'omit' ? { skip: `${c.verdict}: ${c.note}` } : {}) };
}
