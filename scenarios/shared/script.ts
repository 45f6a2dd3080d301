/**
 * Scripted checks: a fixed sequence of state-table steps on a few records the check posts, each judged by the same
 * executable specification and whole-state oracle as the walks (scenarios/shared/walk/run-step.ts runStep, oracle.ts).
 * A single check names the step it is about and the requirements it judges there; the steps that set the state up are
 * judged in full, so a deployment that breaks a set-up step fails the check at the rule it broke (the root cause), not
 * at the check's own.
 *
 * Source: the service's state table (specs/<service>/state-spec.ts).
 */
import type { Check } from '../../harness/check.js';
import type { Reply } from '../../harness/reply.js';
import { ConformanceFailure } from '../../harness/verdict.js';
import { postStart } from './walk/commands.js';
import { stepKind } from './walk/step-kinds.js';
import { IdentityModel, type ModelRecord } from '../../specs/state/identity-model.js';
import { type StepKind, runStep } from './walk/run-step.js';
import type { StepName } from '../../specs/state/step-names.js';
import type { WalkConfig } from './walk-config.js';
import { WalkReal } from './walk/walk-real.js';
import { ranksFirst } from '../../specs/common/identity-content.js';

export class Script {
  readonly model = new IdentityModel();
  readonly real: WalkReal;

  constructor(
    readonly t: Check,
    readonly config: WalkConfig,
  ) {
    this.real = new WalkReal(t, config, []);
  }

  /**
   * Posts `n` new identities far apart (all of `kind` where the service has kinds; default: its kinds in turn) and
   * observes them.
   * @throws StopCheck (skip) when the deployment's matching joined identities generated far apart: the check's starting
   *   state does not hold
   */
  async start(n: number, kind?: string): Promise<ModelRecord[]> {
    this.model.kindsFor = kind ? [kind] : undefined;
    const added = await this.withExchanges(
      () => postStart(this.model, this.real, n),
      `posting the ${n} starting identities`,
    );
    this.apart();
    return added;
  }

  /** Posts one more identity (of `kind` where the service has kinds) and observes it. */
  async add(kind?: string): Promise<ModelRecord> {
    this.model.kindsFor = kind ? [kind] : this.model.kindsFor;
    await this.withExchanges(
      () =>
        runStep(
          stepKind(this.config, 'post new identity'),
          this.model,
          this.real,
          [],
          'postIdentity of a new, distinct identity',
        ),
      'posting one more identity',
    );
    this.apart();
    return this.model.records.at(-1)!;
  }

  /**
   * Runs a step; when it fails, the script's exchanges join the check's (so the report shows the request and reply the
   * failure came from) and the failure names the failing step's among them.
   */
  private async withExchanges<T>(run: () => Promise<T>, setUp?: string): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (e instanceof ConformanceFailure && !e.detail.stepExchanges && this.real.exchanges.length) {
        const from = this.t.exchanges.length;
        this.t.exchanges.push(...this.real.exchanges);
        e.detail.stepExchanges = [from + this.real.stepStart + 1, this.t.exchanges.length];
      }
      if (e instanceof ConformanceFailure && setUp && !e.detail.setUp) e.detail.setUp = setUp;
      throw e;
    }
  }

  private apart(): void {
    if (this.real.findings.length)
      this.t.skip(`identities generated far apart were joined by matching: ${this.real.findings.join('; ')}`);
  }

  /**
   * Runs one step on `recs` (in the order of the row's roles) and judges it: in full, or, with `judge`, only the
   * problems citing those requirements (the check's own, at the step it is about). A step without `judge` sets the
   * check up: a failure there says so, so no report shows it under the title of a step the check never sent.
   * @throws StepFailure, CouldNotJudge
   */
  step(kind: StepName, recs: ModelRecord[], judge?: readonly string[]): Promise<Reply> {
    const k: StepKind = stepKind(this.config, kind);
    const text = `${k.describe(recs)} (${recs.map((r) => `${r.label} ${r.state}`).join(', ')})`;
    return this.withExchanges(
      () => runStep(k, this.model, this.real, recs, text, judge ? { only: judge } : {}),
      judge ? undefined : `set-up step ${text}`,
    );
  }

  /**
   * Waits (within the consistency budget) until a search with each record's data ranks its identity first, so a later
   * step's effect on searches is not hidden by an index that never saw the records. Nothing to wait for at a budget of
   * 0.
   */
  async searchable(...recs: ModelRecord[]): Promise<void> {
    await Promise.all(
      recs.map((r) => {
        const link = this.linkOf(r);
        return link
          ? this.t.waitFor(
              `search ranks ${link} first`,
              () => this.t.call('demographicsSearch', { identity: r.identity }),
              (x) => ranksFirst(x, link),
            )
          : undefined;
      }),
    );
  }

  /** The link ID of the record's identity at the last observation (undefined when it is in none). */
  linkOf(r: ModelRecord): string | undefined {
    return r.state === 'active' || r.state === 'deactivated' ? this.model.lastLinks.get(r.group) : undefined;
  }
}

/** A script of the check's service (its walk configuration). */
export const script = (t: Check, config: WalkConfig) => new Script(t, config);
