/**
 * The check language: what a check body receives. It sends operations (`call`, `ok`, `raw`, `invalid`), reads until the
 * deployment shows what the rules expect (`settle`, `eventually`), judges (`judge`: a named clause's rejections,
 * specs/clauses/; `rule`, `fail`) or stops (`skip`, `omit`). Every exchange it makes is recorded.
 *
 * Verdicts it can lead to (harness/verdict.ts): a ConformanceFailure citing requirement IDs of the check's own service
 * (fail), CouldNotJudge (error: no reply, a reply that stays transient after retries, credentials refused mid-run),
 * StopCheck (skip or omit). Registration with vitest, reports and Allure live in harness/register.ts.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Faker } from '@faker-js/faker';
import { categoryKey } from '../specs/common/categories.js';
import type { Requirement, ServiceName } from '../specs/common/model.js';
import type { OperationName } from '../specs/common/operation-names.js';
import type { SourceRef } from '../specs/common/wire.js';
import { SERVICES, operation, requirementFor } from '../specs/services.js';
import type { CallOptions, ServiceClient } from './client.js';
import { GuardRefusal } from './guard.js';
import type { ServiceTarget } from './config.js';
import type { ExchangeLine } from './exchange-file.js';
import { contentJudgements, contentViolations, envelopeViolations, formatViolations } from './contract.js';
import {
  ENVELOPE_MEMBER_TYPE,
  REPLY_NOT_ENVELOPE,
  REQUEST_REFUSED,
  replyNotEnvelope,
  requestRefused,
} from '../specs/clauses/contract.js';
import { clauseRequirements, findingsOf } from '../specs/clause-registry.js';
import type { Clause } from '../specs/common/clause.js';
import type { Profile } from './profile.js';
import { assertionDetail, isAssertionError } from './failure.js';
import { type Exchange, type Reply, answerOf, describeReply, isAuthFailure, isTransient } from './reply.js';
import type { RunContext } from './run.js';
import {
  type ClauseFinding,
  ConformanceFailure,
  CouldNotJudge,
  INTERRUPTED_NOTE,
  type SituationsSeen,
  TimeRanOut,
} from './verdict.js';

export { describeReply } from './reply.js';
export type { AuthMode } from './client.js';

/**
 * Retries of a reply marked retryableError=true to a request sent wrong on purpose: enough that a transient failure is
 * not mistaken for the deployment's answer, few enough that a deployment answering so every time is judged
 * (ERR-NOT-RETRYABLE) instead of retried for the whole budget.
 */
export const INVALID_REQUEST_RETRIES = 4;

/** Requirement catalogue of one service, keyed by ID. */
const catalogues = new Map<ServiceName, Map<string, Requirement>>();
export function catalogueOf(service: ServiceName): Map<string, Requirement> {
  let c = catalogues.get(service);
  if (!c) catalogues.set(service, (c = new Map(SERVICES[service].requirements.map((r) => [r.id, r]))));
  return c;
}

/** A check stopped without a judgement: skip (could not verify) or omit (not applicable). */
export class StopCheck extends Error {
  constructor(
    readonly verdict: 'skip' | 'omit',
    readonly reason: string,
  ) {
    super(`${verdict}: ${reason}`);
  }
}

export class Check {
  readonly exchanges: Exchange[] = [];
  /**
   * Summary lines of exchanges the check made but keeps no copy of (a passing walk's steps): they count in the run's
   * request, latency and score figures but are never written in full.
   */
  readonly asideLines: ExchangeLine[] = [];
  readonly lags: Array<{ what: string; ms: number }> = [];
  /** What the check wants its result to tell whatever the verdict (e.g. the walks' coverage): its note. */
  readonly notes: string[] = [];
  /** EXPECT requirements the profile switches off (disabledExpectations) that this check cites: never judged. */
  disabled: ReadonlySet<string> = new Set();
  /**
   * Latest time (ms since the epoch) the check sends a request, and a retry of one: its time limit less what one
   * request may take (harness/register.ts sets it). Past it a request is not sent and the check ends "could not judge"
   * (INCOMPLETE), rather than being stopped mid-request by its time limit, an error that gates. Infinity: no limit.
   */
  sendBy = Number.POSITIVE_INFINITY;
  /** Place of the check's requests in the queue for a place in flight (harness/register.ts CheckOptions.chain). */
  priority = 0;
  /** Requests the check sent, every attempt counted (retries too): what it cost the deployment. */
  requestsSent = 0;
  /**
   * Categories of its requirements the check exercised and judged (specs/common/categories.ts), as
   * `<requirement>#<category>`.
   */
  readonly categories = new Set<string>();
  /** The state-table situations a walk check reached and judged (scenarios/shared/walk/planned.ts SituationTally). */
  situations?: SituationsSeen;
  /** Aborted when the run is interrupted (the vitest test's signal; harness/register.ts): nothing more is sent. */
  signal?: AbortSignal;
  /**
   * Index of the exchange of the last reply handed to the check's body (by raw, and so call, ok and invalid): the reply
   * a failing assertion judged, unless the failure names another. The suite's own requests after it (an invalid
   * record's removal) are never the evidence.
   */
  private handed = -1;
  private readonly envReq: string;
  private readonly catalogue: Map<string, Requirement>;

  constructor(
    readonly service: ServiceName,
    readonly verifies: string[],
    readonly faker: Faker,
    readonly client: ServiceClient,
    readonly profile: Profile,
    readonly run: RunContext,
    /**
     * The scenario file the check belongs to (relative to the project root): what it creates is listed in the ledger
     * under it.
     */
    readonly file?: string,
  ) {
    this.envReq = requirementFor(service, 'envelope.reply')!;
    this.catalogue = catalogueOf(service);
  }

  get target(): ServiceTarget {
    return this.client.target;
  }

  /**
   * The call options every request of the check carries: its time to send (`until`), its place in the queue for a place
   * in flight (`priority`) and the run's interrupt (`signal`); the one place both Check and the walks read.
   * @throws StopCheck (skip) once the run is interrupted; TimeRanOut (a CouldNotJudge) naming the operation, once the
   *   time to send is spent
   */
  sending(op: string): Pick<CallOptions, 'until' | 'priority' | 'signal'> {
    if (this.signal?.aborted) throw new StopCheck('skip', `${op}: not sent: ${INTERRUPTED_NOTE}`);
    if (Date.now() >= this.sendBy)
      throw new TimeRanOut(
        `${op}: not sent, the check's time ran out (it sends nothing in the last 10 s of its time limit)`,
      );
    return { until: this.sendBy, priority: this.priority, ...(this.signal ? { signal: this.signal } : {}) };
  }

  /**
   * Waits `ms` (a poll interval, a clock-skew margin), or less: the wait ends when the run is interrupted, and the
   * check's next request then stops it (sending).
   */
  async pause(ms: number): Promise<void> {
    await delay(ms, undefined, this.signal ? { signal: this.signal } : {}).catch(() => {});
  }

  /**
   * Records that the check exercised and judged `category` of `requirement` (specs/common/categories.ts): the report
   * shows, per requirement, the categories a run reached and those it did not.
   */
  exercised(requirement: string, category: string): void {
    this.categories.add(categoryKey(requirement, category));
  }

  /** Counts an exchange the check made toward its requests sent (with the attempts retried before it). */
  countSent(e: Exchange): void {
    this.requestsSent += 1 + (e.retries?.length ?? 0);
  }

  /** Adds a line to the check's note (shown with its result, pass or not). */
  note(text: string): void {
    this.notes.push(text);
  }

  /** A new source reference in the run's namespace, on the i-th configured test source. */
  source(i = 0): SourceRef {
    const names = this.target.sources;
    return { name: names[i % names.length]!, id: this.run.newNativeId() };
  }

  /** True when the guard would let this request leave (it names only what the run owns). */
  guardAllows(op: OperationName, content: Record<string, unknown>): boolean {
    try {
      this.client.guard.check(operation(this.service, op), content);
      return true;
    } catch (e) {
      if (e instanceof GuardRefusal) return false;
      throw e;
    }
  }

  /** True when a request would create at least one source the run owns (so the ledger lists what it stores). */
  ownsAnySourceCreatedBy(op: OperationName, content: Record<string, unknown>): boolean {
    const spec = operation(this.service, op);
    return (spec.sourcesCreated?.(content, this.client.guard.names) ?? []).some((s) => this.client.ownsSource(s));
  }

  /**
   * Sends an operation and returns a settled reply (accepted or rejected) without judging it.
   * @throws GuardRefusal; CouldNotJudge when no judgement is possible: no reply, a reply still transient after retries
   *   (harness/reply.ts isTransient), or the run's own credentials refused.
   */
  async raw<O extends OperationName>(
    op: O,
    content: unknown,
    options: CallOptions & { sentInvalid?: boolean } = {},
  ): Promise<Reply<O>> {
    const { sentInvalid, ...rest } = options;
    const reply = await this.client.call(op, content, {
      ...rest,
      ...this.sending(op),
      file: this.file,
      record: (e) => {
        this.exchanges.push(e);
        this.countSent(e);
      },
    });
    this.handed = this.exchanges.lastIndexOf(reply.exchange);
    if (isTransient(reply, { sentInvalid }))
      throw new CouldNotJudge(
        `${op}: the deployment could not answer (${describeReply(reply)}); a transient reply is not judged`,
      );
    if ((options.auth ?? 'default') === 'default' && isAuthFailure(reply))
      throw new CouldNotJudge(`${op}: the run's credentials were refused (${describeReply(reply)})`);
    return reply;
  }

  /** A new source reference for a request that is invalid on purpose (its native ID marks it: harness/run.ts). */
  invalidSource(i = 0): SourceRef {
    const names = this.target.sources;
    return { name: names[i % names.length]!, id: this.run.newInvalidNativeId() };
  }

  /**
   * Sends a request that is wrong on purpose (bad input): retryableError=true is retried INVALID_REQUEST_RETRIES times,
   * then it is the deployment's answer, not a transient reply. A lenient deployment may accept and store it: every
   * source such a request creates is quarantined in the ledger before it leaves (no other check judges it) and, when
   * accepted, deleted at once.
   * @throws as raw
   */
  async invalid<O extends OperationName>(op: O, content: unknown, options: CallOptions = {}): Promise<Reply<O>> {
    const spec = operation(this.service, op);
    const created = (
      spec.sourcesCreated?.((content ?? {}) as Record<string, unknown>, this.client.guard.names) ?? []
    ).filter((s): s is SourceRef => this.client.ownsSource(s));
    for (const source of created)
      this.run.record({
        kind: 'quarantine',
        service: this.service,
        source: { name: source.name, id: source.id },
        at: new Date().toISOString(),
      });
    // A count cap of the run's (CONFORMANCE_RETRIES) is raised to INVALID_REQUEST_RETRIES for it.
    const cap = this.client.options.retries;
    const reply = await this.raw(op, content, {
      flaggedRetries: INVALID_REQUEST_RETRIES,
      ...(cap !== undefined ? { retries: Math.max(INVALID_REQUEST_RETRIES, cap) } : {}),
      ...options,
      sentInvalid: true,
    });
    if (reply.success === true) for (const source of created) await this.discard(source);
    return reply;
  }

  /**
   * Quarantines an accepted invalid record by its link ID and deletes it. Its replies are not judged (they echo the
   * suite's own bad input); a deletion that fails is left to the teardown, which finds the source in the ledger.
   */
  private async discard(source: SourceRef): Promise<void> {
    const ref = { name: source.name, id: source.id };
    const record = (e: Exchange) => {
      this.exchanges.push(e);
      this.countSent(e);
    };
    const found = await this.client.call('nativeIdQuery', { source: ref }, { record });
    const linkId =
      found.success === true && typeof found.content?.linkId === 'string'
        ? (found.content.linkId as string)
        : undefined;
    if (linkId)
      this.run.record({ kind: 'quarantine', service: this.service, source: ref, linkId, at: new Date().toISOString() });
    await this.client.call('deleteSourceIdentity', { source: ref }, { record });
  }

  /**
   * Sends a valid request and checks the reply is a JSON envelope (ENV-REPLY) and, on success, that its content has the
   * documented shape (the operation's shape requirement). With `sentInvalid` the request is wrong on purpose and is
   * sent as `invalid` does.
   * @throws as raw; ConformanceFailure on a malformed reply.
   */
  async call<O extends OperationName>(
    op: O,
    content: unknown,
    options: CallOptions & { sentInvalid?: boolean } = {},
  ): Promise<Reply<O>> {
    const { sentInvalid, ...rest } = options;
    const reply = sentInvalid ? await this.invalid(op, content, rest) : await this.raw(op, content, rest);
    // JSON that is not an object (an array, a string) is kept as `body` in the exchange; show it too. Only such a reply
    // is shown: an envelope's body is not written out again here.
    const rawBody = reply.body
      ? ''
      : (reply.exchange.reply?.text ??
        (reply.exchange.reply?.body !== undefined ? JSON.stringify(reply.exchange.reply.body) : ''));
    this.judge(REPLY_NOT_ENVELOPE, this.envReq, replyNotEnvelope(op, reply.status, reply.body, rawBody), reply);
    this.judge(
      ENVELOPE_MEMBER_TYPE,
      this.envReq,
      envelopeViolations(reply.body).map((v) => `${op} ${v.pointer}: expected ${v.expected}, got ${v.got}`),
      reply,
    );
    if (reply.success === true) {
      const spec = operation(this.service, op);
      const v = contentViolations(spec, this.judgedContent(reply.content ?? {}));
      if (v.length) {
        const judged = contentJudgements(spec, v, this.catalogue);
        const findings = judged.flatMap((j) => findingsOf(j.clause, this.catalogue.get(j.requirement)!, [j.observed]));
        throw new ConformanceFailure(
          [...new Set(judged.map((j) => j.requirement))],
          `${op} reply content does not match the contract:\n${formatViolations(v)}`,
          {
            what: `${op} reply content`,
            expected: 'the documented members and types',
            got: formatViolations(v),
            exchange: this.positionOf(reply),
            findings,
          },
        );
      }
    }
    return reply;
  }

  /**
   * The part of a reply's content the contract judges: search results the run posted with invalid content on purpose
   * (quarantined, harness/run.ts) are left out, so a lenient deployment's echo of the suite's own bad input is judged
   * only by the bad-input requirements.
   */
  private judgedContent(content: Record<string, any>): Record<string, any> {
    if (!Array.isArray(content?.searchResults)) return content;
    this.run.refreshQuarantine();
    const kept = content.searchResults.filter((r: any) => !this.run.isQuarantined(r));
    return kept.length === content.searchResults.length ? content : { ...content, searchResults: kept };
  }

  /**
   * Sends an operation that must succeed (success=true).
   * @throws ConformanceFailure citing `cites` (default: the check's requirements) when it does not.
   */
  async ok<O extends OperationName>(
    op: O,
    content: unknown,
    options: CallOptions & { cites?: string[] } = {},
  ): Promise<Reply<O>> {
    const reply = await this.call(op, content, options);
    this.judge(REQUEST_REFUSED, options.cites ?? this.verifies, requestRefused(op, answerOf(reply)), reply);
    return reply;
  }

  /**
   * Judges by a clause: `rejected` is what its judging function rejected, in words (empty: the check goes on).
   * Otherwise the check fails citing `requirements` (those the profile switches off excepted), with one finding per
   * observation and requirement, each with the seed sentence the clause rests on there (specs/clause-registry.ts
   * restsOn).
   * @throws ConformanceFailure when anything was rejected; Error when the clause does not cite a requirement in this
   *   service (a suite bug, never the deployment's)
   */
  judge(c: Clause, requirements: string | string[], rejected: readonly string[], at?: Reply): void {
    this.judgeAll([{ clause: c, requirements, rejected }], at);
  }

  /**
   * Judges by several clauses at once (one observation several sentences forbid): one failure with every finding, as
   * `judge` builds them.
   * @throws as judge
   */
  judgeAll(
    judged: ReadonlyArray<{ clause: Clause; requirements: string | string[]; rejected: readonly string[] }>,
    at?: Reply,
  ): void {
    const findings: ClauseFinding[] = [];
    for (const { clause: c, requirements, rejected } of judged) {
      const list = Array.isArray(requirements) ? requirements : [requirements];
      const allowed = clauseRequirements(c, this.service);
      for (const id of list)
        if (!allowed.includes(id))
          throw new Error(`clause ${c.id} does not cite ${id} in the ${this.service} service (specs/clauses/)`);
      if (!rejected.length) continue;
      for (const id of list) findings.push(...findingsOf(c, this.catalogue.get(id)!, rejected));
    }
    this.reject(findings, at);
  }

  /**
   * Fails with findings a clause table outside specs/clauses/ made (the whole-state oracle's, asked by a single check),
   * those citing a requirement the profile switches off left out; nothing when none is left.
   * @throws ConformanceFailure
   */
  reject(given: readonly ClauseFinding[], at?: Reply): void {
    const findings = given.filter((f) => !this.disabled.has(f.requirement));
    if (!findings.length) return;
    const failed = [...new Set(findings.map((f) => f.requirement))];
    const clauses = [...new Set(findings.map((f) => f.clause))];
    const observed = [...new Set(findings.map((f) => f.observed))];
    // In words each report can print as it stands: "checked: whether there is <what the clause rejects>",
    // "expected: none: ...", "got: <the observations>".
    throw new ConformanceFailure(failed, `${clauses.join(', ')}: ${observed.join('; ')}`, {
      what: `whether there is ${[...new Set(findings.map((f) => f.rejects))].join('; or ')}`,
      expected: `none: the seeds forbid it (${clauses.join(', ')})`,
      got: observed.join('\n'),
      exchange: at ? this.positionOf(at) : this.exchanges.length,
      findings,
    });
  }

  /** Runs assertions; any assertion failure inside becomes a ConformanceFailure citing `ids`. */
  async rule<T>(ids: string | string[], body: () => T | Promise<T>): Promise<T> {
    const list = Array.isArray(ids) ? ids : [ids];
    for (const id of list)
      if (!this.catalogue.has(id))
        throw new Error(`rule cites ${id}, which is not a requirement of the ${this.service} service`);
    if (list.every((id) => this.disabled.has(id))) return undefined as T;
    try {
      return await body();
    } catch (e) {
      if (e instanceof ConformanceFailure || e instanceof CouldNotJudge || e instanceof StopCheck) throw e;
      if (isAssertionError(e))
        throw new ConformanceFailure(list, e.message, { ...assertionDetail(e), exchange: this.judgedExchange() });
      throw e;
    }
  }

  /**
   * The position (1-based) of the exchange a failure that names none is shown with: the last reply handed to the
   * check's body (what its assertions judged), else the last exchange.
   */
  judgedExchange(): number {
    return (this.handed >= 0 ? this.handed : this.exchanges.length - 1) + 1;
  }

  /** Position (1-based) of a reply's exchange among the check's exchanges (the last one when not found). */
  private positionOf(reply: Reply): number {
    const i = this.exchanges.lastIndexOf(reply.exchange);
    return (i < 0 ? this.exchanges.length - 1 : i) + 1;
  }

  /** Fails the check citing `ids`. */
  fail(ids: string | string[], message: string): never {
    throw new ConformanceFailure(Array.isArray(ids) ? ids : [ids], message, { exchange: this.judgedExchange() });
  }

  /** Stops the check as "could not verify" (blocks an overall pass). */
  skip(reason: string): never {
    throw new StopCheck('skip', reason);
  }

  /** Stops the check as "not applicable under this profile" (does not block). */
  omit(reason: string): never {
    throw new StopCheck('omit', reason);
  }

  /**
   * Reads after a write until the deployment shows what the rules expect, or the profile's consistency budget
   * (consistencyBudgetMs) is spent, and returns the last value read: the caller judges that one. The value judged is
   * always of a read that began once the budget was spent (the deployment had all of it), however long the reads before
   * it took on a slow or busy machine. With a budget of 0 it reads once. A read that needed polling is recorded as a
   * lag (the report shows it).
   */
  async settle<T>(what: string, read: () => Promise<T>, until: (value: T) => boolean): Promise<T> {
    const budget = this.profile.consistencyBudgetMs ?? 0;
    const started = Date.now();
    for (;;) {
      const began = Date.now();
      const value = await read();
      if (until(value)) {
        const lag = Date.now() - started;
        if (lag > 0 && budget > 0 && lag >= this.profile.pollIntervalMs) this.lags.push({ what, ms: lag });
        return value;
      }
      if (began - started >= budget) return value;
      await this.pause(Math.max(0, Math.min(this.profile.pollIntervalMs, started + budget - Date.now())));
    }
  }

  /**
   * Waits, before the next step, until the deployment shows a write (e.g. a search index catching up). With a
   * consistency budget of 0 the profile declares reads current, so it reads nothing.
   */
  async waitFor<T>(what: string, read: () => Promise<T>, until: (value: T) => boolean): Promise<void> {
    if ((this.profile.consistencyBudgetMs ?? 0) > 0) await this.settle(what, read, until);
  }

  /** Polls `probe` until it returns a value (not undefined) within the consistency budget; the value or undefined. */
  async eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T | undefined> {
    return this.settle(what, probe, (v) => v !== undefined);
  }
}
