/**
 * The "real" side of a model-based walk: the check's client, the service's walk configuration
 * (scenarios/shared/walk-config.ts), and the record of one walk (numbered steps and the exchanges they caused), kept
 * per walk so a failing walk can be printed without the thousands of exchanges of the passing ones.
 */
import type { OperationName } from '../../../specs/common/operation-names.js';
import type { Faker } from '@faker-js/faker';
import type { Check } from '../../../harness/check.js';
import { describeReply } from '../../../harness/check.js';
import { type Exchange, type Reply, answerOf, isTransient } from '../../../harness/reply.js';
import { said } from '../../../specs/common/answer.js';
import { exchangeLine } from '../../../harness/exchange-file.js';
import { ConformanceFailure, CouldNotJudge } from '../../../harness/verdict.js';
import { finding } from '../../../specs/common/clause.js';
import { citeOf } from '../../../specs/services.js';
import type { WalkConfig } from '../walk-config.js';
import { SERVER_ERROR, serverError } from '../../../specs/clauses/bad-input.js';
import type { SeedCitation } from '../../../specs/common/seed.js';
import type { Cite } from '../../../specs/common/clause.js';
import type { SourceRef } from '../../../specs/common/wire.js';

/** A change a step made that the feed must show (its row's feed promise), judged once the walk has ended. */
export interface FeedEvent {
  step: string;
  requirement: string;
  /** The sentence that promises the change a notification (the row's feed seed). */
  forbids?: SeedCitation;
  /** Native IDs and link IDs a notification of it may name. */
  ids: string[];
  /** When the step began (the suite's clock, ms). */
  at: number;
}

export class WalkReal {
  readonly steps: string[] = [];
  readonly exchanges: Exchange[] = [];
  /** The identity a postIdentity step is about to post (set by its content, read when it succeeded). */
  pending?: { source: SourceRef; identity: Record<string, unknown>; kind?: string };
  /** Index into `exchanges` where the current step began. */
  stepStart = 0;
  /** Steps of the walk's start (postStart), which the numbered steps of a failure do not count. */
  startSteps = 0;
  /** Changes of this walk the notification feed must show (scenarios/shared/walk/feed.ts). */
  readonly feedEvents: FeedEvent[] = [];
  /** The feed's notifications of the walk's starting posts, which no step may count as its own. */
  feedBaseline?: Set<string>;
  /** The walk's window did not fit in WALK_FEED_PAGES pages when its baseline was read: its feed is not judged. */
  feedUnread = false;
  /**
   * What the walk's last step broke if the state differed after it (its effect, or after a rejection, nothing
   * changing): the walk's final observation cites it.
   */
  lastStep?: Cite;

  constructor(
    readonly t: Check,
    readonly config: WalkConfig,
    readonly findings: string[],
    /** Steps run per kind and verdict across all walks of the check (printed with the seed). */
    readonly tally: Map<string, number> = new Map(),
    /**
     * Where the walk's identities come from (default the check's Faker; a tour run alongside others has its own, so its
     * data does not depend on their timing).
     */
    readonly faker: Faker = t.faker,
  ) {}

  count(key: string): void {
    this.tally.set(key, (this.tally.get(key) ?? 0) + 1);
  }

  /**
   * Sends one request (no judgement); a reply that stays transient after retries stops the walk as "could not judge".
   */
  async call(op: OperationName, content: Record<string, unknown>): Promise<Reply> {
    const reply = await this.t.client.call(op, content, {
      ...this.t.sending(op),
      file: this.t.file,
      record: (e) => {
        this.exchanges.push(e);
        this.t.countSent(e);
        this.t.asideLines.push(exchangeLine(e));
      },
    });
    if (isTransient(reply))
      throw new CouldNotJudge(
        `${op}: the deployment could not answer (${describeReply(reply)}); a transient reply is not judged`,
      );
    return reply;
  }

  /**
   * An HTTP 5xx that carries no failure envelope is no answer (Errors: failures are carried in the envelope). An
   * enveloped success=false is a rejection whatever its status (statuses other than are "not shown").
   */
  assertNoServerError(reply: Reply, op: string): void {
    const answer = answerOf(reply);
    if (serverError(op, answer).length) {
      const observed = `${op} answered ${said(answer)}`;
      throw new ConformanceFailure([this.config.requirements.noServerError], observed, {
        findings: [
          {
            ...finding(SERVER_ERROR, citeOf(this.config.requirements.noServerError), observed),
            rejects: SERVER_ERROR.rejects,
          },
        ],
        operation: op,
      });
    }
  }

  beginStep(text: string): void {
    this.steps.push(text);
    this.stepStart = this.exchanges.length;
  }

  /** Exchanges of the current step. */
  stepExchanges(): Exchange[] {
    return this.exchanges.slice(this.stepStart);
  }
}
