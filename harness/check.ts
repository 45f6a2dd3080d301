/**
 * The check harness: `scenario(service, area).check(title, verifies, body)` registers one vitest
 * test that cites the requirement IDs it verifies (in its title and metadata), runs with a Faker
 * seeded from the run seed and its stable ID, records every exchange, and leaves a verdict
 * (pass, fail, error, skip, omit) for the reporters. Deliberately thin, like test262's harness.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as allure from 'allure-js-commons';
import { type TestContext, inject, test } from 'vitest';
import type { Faker } from '@faker-js/faker';
import type { ServiceName } from '../specs/common/model.js';
import type { SourceRef } from '../specs/common/wire.js';
import { SERVICES, operation, requirementIndex } from '../specs/services.js';
import { fnv1a, seededFaker, testSeed } from '../generators/seed.js';
import { type CallOptions, type Exchange, GuardRefusal, type Reply, type ServiceClient } from './client.js';
import type { ServiceTarget } from './config.js';
import { contentViolations, envelopeViolations, formatViolations, requirementsOf } from './contract.js';
import type { Profile } from './profile.js';
import type { RunContext } from './run.js';
import { type RunVariant, clientFor, runContext, runInfo } from './targets.js';
import { type CheckMeta, ConformanceFailure, CouldNotJudge, type Verdict } from './verdict.js';

const REQUIREMENTS = requirementIndex();

class StopCheck extends Error {
  constructor(
    readonly verdict: 'skip' | 'omit',
    readonly reason: string,
  ) {
    super(`${verdict}: ${reason}`);
  }
}

/**
 * A check's stable ID part from its title. Long titles keep 90 characters plus a hash of the whole
 * slug, so two titles that differ only at the end never share an ID (IDs key seeds, baselines,
 * known-failure lists and exchange files).
 */
export function slug(text: string): string {
  const full = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return full.length <= 100 ? full : `${full.slice(0, 90)}-${fnv1a(full).toString(16).padStart(8, '0')}`;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Short description of what came back, for failure messages. */
export function describeReply(reply: Reply): string {
  if (reply.exchange.error) return `no reply (${reply.exchange.error})`;
  const b = reply.body;
  const detail = b ? [b.message, ...(Array.isArray(b.errors) ? b.errors : [])].filter(Boolean).join('; ') : (reply.exchange.reply?.text ?? '').slice(0, 200);
  return `HTTP ${reply.status}, success=${String(reply.success)}${detail ? ` (${detail})` : ''}`;
}

/** What a check body receives. */
export class Check {
  readonly exchanges: Exchange[] = [];
  readonly lags: Array<{ what: string; ms: number }> = [];
  private readonly envReq: string;

  constructor(
    readonly service: ServiceName,
    readonly verifies: string[],
    readonly faker: Faker,
    readonly client: ServiceClient,
    readonly profile: Profile,
    readonly run: RunContext,
  ) {
    this.envReq = `${SERVICES[service].idPrefix}-ENV-REPLY`;
  }

  get target(): ServiceTarget {
    return this.client.target;
  }

  /** A new source reference in the run's namespace, on the i-th configured test source. */
  source(i = 0): SourceRef {
    const names = this.target.sources;
    return { name: names[i % names.length]!, id: this.run.newNativeId() };
  }

  /** Sends an operation without judging the reply. @throws GuardRefusal */
  raw(op: string, content: unknown, options: CallOptions = {}): Promise<Reply> {
    return this.client.call(op, content, { ...options, record: (e) => this.exchanges.push(e) });
  }

  /**
   * Sends an operation and checks the reply is a JSON envelope (ENV-REPLY) and, on success, that
   * its content has the documented shape (the operation's shape requirement).
   * @throws CouldNotJudge on a transport failure; ConformanceFailure on a malformed reply.
   */
  async call(op: string, content: unknown, options: CallOptions = {}): Promise<Reply> {
    const reply = await this.raw(op, content, options);
    if (reply.exchange.error) throw new CouldNotJudge(`${op}: ${reply.exchange.error}`);
    if (!reply.body) {
      // JSON that is not an object (an array, a string) is kept as `body` in the exchange; show it too.
      const rawBody = reply.exchange.reply?.text ?? (reply.exchange.reply?.body !== undefined ? JSON.stringify(reply.exchange.reply.body) : '');
      const kind = rawBody ? 'a body that is not a JSON object' : 'an empty body';
      throw new ConformanceFailure([this.envReq], `${op} replied HTTP ${reply.status} with ${kind}: ${rawBody.slice(0, 200)}`);
    }
    const env = envelopeViolations(reply.body);
    if (env.length) throw new ConformanceFailure([this.envReq], `${op} reply is not a valid response envelope:\n${formatViolations(env)}`);
    if (reply.success === true && reply.status !== undefined && reply.status < 300) {
      const spec = operation(this.service, op);
      const v = contentViolations(spec, reply.content ?? {});
      if (v.length)
        throw new ConformanceFailure(
          [spec.shapeRequirement, ...requirementsOf(spec, SERVICES[this.service].idPrefix, v, REQUIREMENTS)],
          `${op} reply content does not match the contract:\n${formatViolations(v)}`,
        );
    }
    return reply;
  }

  /**
   * Sends an operation that must succeed (HTTP 2xx and success=true).
   * @throws ConformanceFailure citing `cites` (default: the check's requirements) when it does not.
   */
  async ok(op: string, content: unknown, options: CallOptions & { cites?: string[] } = {}): Promise<Reply> {
    const reply = await this.call(op, content, options);
    if (reply.success !== true || (reply.status ?? 0) >= 300)
      throw new ConformanceFailure(options.cites ?? this.verifies, `${op} was expected to succeed but replied ${describeReply(reply)}`);
    return reply;
  }

  /** Runs assertions; any assertion failure inside becomes a ConformanceFailure citing `ids`. */
  async rule<T>(ids: string | string[], body: () => T | Promise<T>): Promise<T> {
    const list = Array.isArray(ids) ? ids : [ids];
    for (const id of list) if (!REQUIREMENTS.has(id)) throw new Error(`rule cites unknown requirement ${id}`);
    try {
      return await body();
    } catch (e) {
      if (e instanceof ConformanceFailure || e instanceof CouldNotJudge || e instanceof StopCheck) throw e;
      if (e instanceof Error && (e.name === 'AssertionError' || 'matcherResult' in e || 'actual' in e)) throw new ConformanceFailure(list, e.message);
      throw e;
    }
  }

  /** Fails the check citing `ids`. */
  fail(ids: string | string[], message: string): never {
    throw new ConformanceFailure(Array.isArray(ids) ? ids : [ids], message);
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
   * Polls `probe` until it returns a value (not undefined) or the profile's consistency budget is
   * spent; returns the value or undefined. A value seen only after polling is recorded as a lag.
   */
  async eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T | undefined> {
    const budget = this.profile.consistencyBudgetMs ?? 0;
    const started = Date.now();
    for (;;) {
      const value = await probe();
      if (value !== undefined) {
        const lag = Date.now() - started;
        if (lag > 0 && budget > 0 && lag >= this.profile.pollIntervalMs) this.lags.push({ what, ms: lag });
        return value;
      }
      if (Date.now() - started + this.profile.pollIntervalMs > budget) return undefined;
      await sleep(this.profile.pollIntervalMs);
    }
  }
}

function classify(e: unknown, verifies: string[]): { verdict: Verdict; failed?: string[]; note?: string } {
  if (e instanceof StopCheck) return { verdict: e.verdict, note: e.reason };
  if (e instanceof ConformanceFailure) return { verdict: 'fail', failed: e.requirements };
  if (e instanceof CouldNotJudge || e instanceof GuardRefusal) return { verdict: 'error', note: (e as Error).message };
  if (e instanceof Error && (e.name === 'AssertionError' || 'matcherResult' in e)) return { verdict: 'fail', failed: verifies };
  return { verdict: 'error', note: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

export interface CheckOptions {
  /** Run this check only when the profile enables creating data sources on the target. */
  createsDataSources?: boolean;
}

/**
 * Declares the checks of one area of one service.
 * @param service which service's client and requirements the checks use
 * @param area file-level area (envelope, search, lifecycle, ...), used in check IDs and reports
 */
export function scenario(service: ServiceName, area: string) {
  // Check IDs this registrar gave out: a repeat (two titles with one ID) is a suite bug.
  const registered = new Set<string>();
  function check(title: string, verifies: string[], body: (t: Check) => Promise<void>, options: CheckOptions = {}): void {
    if (!verifies.length) throw new Error(`check "${title}" cites no requirement`);
    for (const id of verifies) if (!REQUIREMENTS.has(id)) throw new Error(`check "${title}" cites unknown requirement ${id}`);
    const checkId = `${service}/${area}/${slug(title)}`;
    if (registered.has(checkId)) throw new Error(`check "${title}" repeats check ID ${checkId}: give it a distinct title`);
    registered.add(checkId);
    const provided = inject('conformance');
    const only = provided?.only;
    const cites = (ids: string[]) => verifies.some((id) => ids.includes(id));
    // Detection: once per variant whose requirements the check cites; a check cited by none is declared skipped (sends nothing).
    const variants = provided?.variants ? provided.variants.filter((v) => cites(v.only)) : [undefined];
    if ((only && !cites(only)) || !variants.length) {
      test.skip(`${title} [${verifies.join(' ')}]`, () => {});
      return;
    }
    for (const variant of variants) register(title, checkId, verifies, body, options, variant);
  }

  function register(title: string, checkId: string, verifies: string[], body: (t: Check) => Promise<void>, options: CheckOptions, variant: RunVariant | undefined): void {
    test.concurrent(`${title} [${verifies.join(' ')}]${variant ? ` {${variant.name}}` : ''}`, async (ctx: TestContext) => {
      const meta: CheckMeta = { checkId, service, area, verifies };
      ctx.task.meta.check = meta;
      if (variant) (ctx.task.meta as Record<string, unknown>).variant = variant.name;
      const info = runInfo();
      const client = clientFor(service, variant);
      let t: Check | undefined;
      try {
        if (!client) throw new StopCheck('omit', `${service} service not configured for this run`);
        const disabled = verifies.filter((id) => info.profile.disabledExpectations.includes(id) && REQUIREMENTS.get(id)?.level === 'EXPECT');
        if (disabled.length) throw new StopCheck('omit', `profile disables ${disabled.join(', ')}`);
        if (options.createsDataSources && !info.profile.createDataSources) throw new StopCheck('omit', 'profile createDataSources is off for this target');
        t = new Check(service, verifies, seededFaker(testSeed(info.seed, checkId)), client, info.profile, runContext(variant));
        await body(t);
        meta.verdict = 'pass';
      } catch (e) {
        const c = classify(e, verifies);
        meta.verdict = c.verdict;
        if (c.failed) meta.failedRequirements = c.failed;
        if (c.note) meta.note = c.note;
        if (c.verdict === 'skip' || c.verdict === 'omit') ctx.skip(`${c.verdict}: ${c.note}`);
        throw e;
      } finally {
        if (t) finish(ctx, meta, t);
      }
    });
  }
  return { check };
}

function finish(ctx: TestContext, meta: CheckMeta, t: Check): void {
  meta.operations = [...new Set(t.exchanges.map((e) => e.operation))];
  if (t.lags.length) meta.lags = t.lags;
  const retries = t.exchanges.reduce((n, e) => n + (e.retries?.length ?? 0), 0);
  if (retries) meta.retries = retries;
  if (t.exchanges.length) {
    const dir = join(t.run.folder, 'exchanges');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${meta.checkId.replace(/\//g, '__')}.json`);
    writeFileSync(file, JSON.stringify(t.exchanges, null, 2));
    meta.exchangesFile = file;
  }
  // Allure: labels, requirement links, and the exchanges of a failing check as an attachment.
  void allure.label('service', meta.service);
  void allure.label('area', meta.area);
  void allure.label('verdict', meta.verdict ?? 'error');
  for (const op of meta.operations) void allure.label('operation', op);
  for (const id of meta.verifies) void allure.link(id, id, 'requirement'); // URL from the reporter's link template
  if (meta.verdict !== 'pass' && t.exchanges.length) void allure.attachment('exchanges', JSON.stringify(t.exchanges, null, 2), 'application/json');
  void ctx;
}
