/**
 * The "real" side of a model-based walk: the check's client, the requirement IDs each step
 * cites, and the record of one walk (numbered steps and the exchanges they caused), kept per walk
 * so a failing walk can be printed without the thousands of exchanges of the passing ones.
 */
import type { Faker } from '@faker-js/faker';
import type { Check } from '../../../harness/check.js';
import type { Profile } from '../../../harness/profile.js';
import { describeReply } from '../../../harness/check.js';
import { type Exchange, type Reply, isTransient } from '../../../harness/reply.js';
import { exchangeLine } from '../../../harness/exchange-file.js';
import { ConformanceFailure, CouldNotJudge } from '../../../harness/verdict.js';
import type { ServiceName } from '../../../specs/common/model.js';
import { requirementFor } from '../../../specs/services.js';
import type { SourceRef } from '../../../specs/common/wire.js';

/** Requirement IDs of one state-table row: the reply members and the effect afterwards. */
export interface RowRequirements {
  reply?: string;
  effect: string;
}

/** What a service's walks need to know: how to build identities and which requirements each step bears on. */
export interface WalkConfig {
  service: ServiceName;
  /** A new identity, far apart from every other one the walk posts, on `source`, of `kind` where the service has kinds, as `profile` writes it. */
  generate: (f: Faker, source: SourceRef, kind: string | undefined, profile: Profile) => Record<string, unknown>;
  /** Identity kinds (provider: practitioner, facility); merge and link across kinds are rejected. */
  kinds?: string[];
  requirements: {
    /** postIdentity of a new record adds it. */
    post: string;
    /** Re-posting a record's own source updates it (EXPECT). */
    update: string;
    /** Identities generated far apart are not joined by matching (EXPECT). */
    apart: string;
    /** A rejected step leaves every record as it was (EXPECT). */
    rejectedNoChange: string;
    /** A reply is never an HTTP 5xx. */
    noServerError: string;
    /** Soft delete and restore (organization, provider). */
    softDelete?: RowRequirements;
    restore?: RowRequirements;
    /** Deactivate and reactivate (person). */
    deactivate?: RowRequirements;
    reactivate?: RowRequirements;
    /** A deactivated record is excluded from future matching (person). */
    deactivatedExcluded?: string;
    hardDelete: RowRequirements;
    merge: RowRequirements;
    unmerge: RowRequirements;
    link: RowRequirements;
    unlink: RowRequirements;
    /** Merge and link only between identities of the same kind (provider). */
    sameKind?: { merge: string; link: string };
  };
}

const WALK_ROWS = ['softDelete', 'restore', 'deactivate', 'reactivate', 'hardDelete', 'merge', 'unmerge', 'link', 'unlink'] as const;

/**
 * A service's walk requirements, read from the roles of its catalogue (`walk.post`,
 * `walk.merge.effect`, ... in specs/<service>/requirements.ts), so the rule-to-requirement map
 * has one owner.
 * @throws Error when a role every walk needs (post, update, apart, rejectedNoChange,
 *   noServerError, and the effect of hardDelete, merge, unmerge, link, unlink) has no requirement
 */
export function walkRequirementsOf(service: ServiceName): WalkConfig['requirements'] {
  const role = (name: string) => requirementFor(service, `walk.${name}`);
  const need = (name: string) => {
    const id = role(name);
    if (!id) throw new Error(`${service}: no requirement has the role walk.${name}`);
    return id;
  };
  const rows: Partial<Record<(typeof WALK_ROWS)[number], RowRequirements>> = {};
  for (const row of WALK_ROWS) {
    const effect = role(`${row}.effect`);
    const reply = role(`${row}.reply`);
    if (effect) rows[row] = { effect, ...(reply ? { reply } : {}) };
  }
  const sameKind =
    role('sameKind.merge') && role('sameKind.link') ? { merge: need('sameKind.merge'), link: need('sameKind.link') } : undefined;
  const deactivatedExcluded = role('deactivatedExcluded');
  for (const row of ['hardDelete', 'merge', 'unmerge', 'link', 'unlink'] as const) if (!rows[row]) need(`${row}.effect`);
  return {
    post: need('post'),
    update: need('update'),
    apart: need('apart'),
    rejectedNoChange: need('rejectedNoChange'),
    noServerError: need('noServerError'),
    ...rows,
    hardDelete: rows.hardDelete!,
    merge: rows.merge!,
    unmerge: rows.unmerge!,
    link: rows.link!,
    unlink: rows.unlink!,
    ...(deactivatedExcluded ? { deactivatedExcluded } : {}),
    ...(sameKind ? { sameKind } : {}),
  };
}

/** Every requirement a walk of this configuration may cite. */
export function walkRequirementIds(c: WalkConfig): string[] {
  const r = c.requirements;
  const rows = [r.softDelete, r.restore, r.deactivate, r.reactivate, r.hardDelete, r.merge, r.unmerge, r.link, r.unlink].flatMap((x) =>
    x ? [x.reply, x.effect] : [],
  );
  return [
    ...new Set(
      [
        r.post,
        r.update,
        r.deactivatedExcluded,
        ...rows,
        ...(r.sameKind ? [r.sameKind.merge, r.sameKind.link] : []),
        r.apart,
        r.rejectedNoChange,
      ].filter((x): x is string => Boolean(x)),
    ),
  ];
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

  constructor(
    readonly t: Check,
    readonly config: WalkConfig,
    readonly findings: string[],
    /** Steps run per kind and verdict across all walks of the check (printed with the seed). */
    readonly tally: Map<string, number> = new Map(),
    /** Where the walk's identities come from (default the check's Faker; a tour run alongside others has its own, so its data does not depend on their timing). */
    readonly faker: Faker = t.faker,
  ) {}

  count(key: string): void {
    this.tally.set(key, (this.tally.get(key) ?? 0) + 1);
  }

  /** Sends one request (no judgement); a reply that stays transient after retries stops the walk as "could not judge". */
  async call(op: string, content: Record<string, unknown>): Promise<Reply> {
    const reply = await this.t.client.call(op, content, {
      file: this.t.file,
      record: (e) => {
        this.exchanges.push(e);
        this.t.asideLines.push(exchangeLine(e));
      },
    });
    if (isTransient(reply))
      throw new CouldNotJudge(`${op}: the deployment could not answer (${describeReply(reply)}); a transient reply is not judged`);
    return reply;
  }

  /**
   * An HTTP 5xx that carries no failure envelope is no answer (Errors: failures are carried in the
   * envelope). An enveloped success=false is a rejection whatever its status (statuses other than
   * 200 are "not shown").
   */
  assertNoServerError(reply: Reply, op: string): void {
    if ((reply.status ?? 0) >= 500 && reply.success !== false)
      throw new ConformanceFailure([this.config.requirements.noServerError], `${op} answered ${describeReply(reply)}`);
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
