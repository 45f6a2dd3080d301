/**
 * The walk's commands, one per state-table row plus posting a new identity and re-posting an
 * existing record, as fast-check asynchronous commands over the identity model.
 *
 * Each step kind says, from the model, whether the seeds allow the step (then it must succeed
 * and the model moves as the row says), forbid it (then it must be rejected), or leave it
 * "not shown" (either outcome; after a success the named records follow what the deployment
 * did). After every step the observed partition is compared with the model.
 *
 * Source: organization-identity-api.md, "States and transitions" (rows and the sentence
 * "Preconditions on the prior state of each operation, and any further states: not shown");
 * person-provider-identity-api.md, "States and transitions" (provider: same type only).
 */
import fc from 'fast-check';
import { describeReply } from '../../../harness/check.js';
import { type Reply, isRejection } from '../../../harness/reply.js';
import { postContent } from '../../../generators/common.js';
import { ConformanceFailure } from '../../../harness/verdict.js';
import { type IdentityModel, type ModelRecord, type RecordState, type Verdict, isLive, labelFor } from './identity-model.js';
import { adopt, askEarly, checkIdentities, comparePartition, lookupAll } from './observe.js';
import { addHistory, historyTags, stepKeys } from './coverage.js';
import { type Option, anythingNew, rankOptions } from './steer.js';
import type { RowRequirements, WalkConfig, WalkReal } from './walk-real.js';

const src = (r: ModelRecord) => ({ name: r.source.name, id: r.source.id });
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const active = (r: ModelRecord) => r.state === 'active';
const sameKind = (a: ModelRecord, b: ModelRecord) => a.kind === b.kind;

/** One kind of step. `recs` are the records it names, chosen by `pick`. */
interface StepKind {
  name: string;
  op: string;
  /** How many records the step names. */
  roles: 0 | 1 | 2;
  /** The role of each named record, for coverage keys (one-record steps: none). */
  roleNames: readonly string[];
  /** Candidate records (or pairs) that make the step interesting from the current state. */
  fit(m: IdentityModel): ModelRecord[][];
  describe(recs: ModelRecord[]): string;
  verdict(m: IdentityModel, recs: ModelRecord[], c: WalkConfig): { verdict: Verdict; rejectCites?: string };
  content(w: WalkReal, m: IdentityModel, recs: ModelRecord[]): Record<string, unknown>;
  /** Requirements of the row. */
  row(c: WalkConfig): RowRequirements;
  /** Moves the model for an allowed, accepted step; returns labels whose identity follows the deployment (they must stay live). */
  apply(m: IdentityModel, recs: ModelRecord[], reply: Reply, w: WalkReal): string[];
  /** The record whose state carries the step's effect (a merge: the retired record); the history it leaves lasts while that holds. */
  bond?(recs: ModelRecord[]): ModelRecord | undefined;
  /** Records whose state an accepted open step leaves undecidable from lookups (a merge may have retired them). */
  openUnknown?(recs: ModelRecord[]): ModelRecord[];
  /** Problems with the reply of an allowed, accepted step, given the link IDs before and after. */
  checkReply?(
    reply: Reply,
    m: IdentityModel,
    recs: ModelRecord[],
    before: Map<number, string>,
    after: Map<number, string>,
    formerGroup: number[],
  ): string[];
  /** Further requests right after an accepted step (before the partition is observed); the problems count when the step was allowed. */
  probe?(w: WalkReal, m: IdentityModel, recs: ModelRecord[]): Promise<string[]>;
}

/** Records touched by an open step: the named ones and the other members of their identities. */
const open = (m: IdentityModel, recs: ModelRecord[]) => [
  ...new Set(recs.flatMap((r) => (isLive(r) ? m.members(r.group) : [r])).map((r) => r.label)),
];

const pairs = (m: IdentityModel, ok: (a: ModelRecord, b: ModelRecord) => boolean) =>
  m.records.flatMap((a) => m.records.filter((b) => b !== a && ok(a, b)).map((b) => [a, b]));

const crossKind = (c: WalkConfig, a: ModelRecord, b: ModelRecord, cite: string | undefined) =>
  c.kinds && active(a) && active(b) && !sameKind(a, b) && cite ? { verdict: 'reject' as const, rejectCites: cite } : undefined;

/** The identity the walk's record number `index` gets: its source, its data, and its kind where the service has kinds. */
function newIdentity(w: WalkReal, m: IdentityModel, index: number): NonNullable<WalkReal['pending']> {
  const kinds = w.config.kinds;
  const kind = kinds ? kinds[m.singleKind ? 0 : index % kinds.length] : undefined;
  const source = w.t.source(index);
  return { source, identity: w.config.generate(w.faker, source, kind, w.t.profile), kind };
}

const postNew: StepKind = {
  name: 'post new identity',
  roleNames: [],
  op: 'postIdentity',
  roles: 0,
  fit: () => [[]],
  describe: () => 'postIdentity of a new, distinct identity',
  verdict: () => ({ verdict: 'allow' }),
  content(w, m) {
    w.pending = newIdentity(w, m, m.records.length);
    return postContent(w.pending.identity, w.pending.source, w.t.profile.sourcePlacement);
  },
  row: (c) => ({ effect: c.requirements.post }),
  apply(m, _recs, reply, w) {
    const p = w.pending!;
    const r = m.add(p.source, p.identity, p.kind);
    const linkId = reply.content?.linkId;
    if (linkId === null || linkId === undefined) return [];
    w.findings.push(
      `postIdentity of ${r.label}, generated far apart from the walk's other identities, was linked to existing identity ${String(linkId)}`,
    );
    return [r.label];
  },
};

const repost: StepKind = {
  name: 'update',
  roleNames: [],
  op: 'postIdentity',
  roles: 1,
  fit: (m) => m.records.filter(active).map((r) => [r]),
  describe: ([r]) => `postIdentity again for ${r!.label} (update)`,
  verdict: (_m, [r]) => ({ verdict: active(r!) ? 'allow' : 'either' }),
  content: (w, _m, [r]) => postContent(r!.identity, r!.source, w.t.profile.sourcePlacement),
  row: (c) => ({ effect: c.requirements.update }),
  apply: () => [],
};

const softDelete: StepKind = {
  name: 'soft delete',
  roleNames: [],
  op: 'softDeleteSource',
  roles: 1,
  fit: (m) => m.records.filter(active).map((r) => [r]),
  describe: ([r]) => `softDeleteSource ${r!.label}`,
  verdict: (_m, [r]) => ({ verdict: active(r!) ? 'allow' : 'either' }),
  content: (_w, _m, [r]) => ({ sourceToSoftDelete: src(r!) }),
  row: (c) => c.requirements.softDelete!,
  apply(_m, [r]) {
    r!.state = 'soft-deleted';
    return [];
  },
  checkReply(reply, _m, _recs, before, _after, [g]) {
    const link = before.get(g!);
    const named = [...list(reply.content?.linkIdsSoftDeleted), ...list(reply.content?.linkIdsModified)];
    return link && !named.includes(link) ? [`reply names ${JSON.stringify(named)}, not ${link}, the identity that held the source`] : [];
  },
};

const restore: StepKind = {
  name: 'restore',
  roleNames: [],
  op: 'restoreSource',
  roles: 1,
  fit: (m) => m.records.filter((r) => r.state === 'soft-deleted').map((r) => [r]),
  describe: ([r]) => `restoreSource ${r!.label}`,
  verdict: (_m, [r], c) =>
    r!.state === 'soft-deleted'
      ? { verdict: 'allow' }
      : r!.state === 'deleted'
        ? { verdict: 'inert', rejectCites: c.requirements.hardDelete.effect }
        : { verdict: 'either' },
  content: (w, _m, [r]) => ({ [w.t.profile.members.restoreSource]: src(r!) }),
  row: (c) => c.requirements.restore!,
  apply(_m, [r]) {
    r!.state = 'active';
    // Which identity a restored source returns to is not shown: its former one or a new one.
    return [r!.label];
  },
  checkReply(reply, _m, [r], _before, after) {
    const link = after.get(r!.group);
    const named = [...list(reply.content?.linkIdsModified), ...(reply.content?.linkIdCreated ? [String(reply.content.linkIdCreated)] : [])];
    return link && !named.includes(link) ? [`reply names ${JSON.stringify(named)}, but ${r!.label} is now in identity ${link}`] : [];
  },
};

const hardDelete: StepKind = {
  name: 'hard delete',
  roleNames: [],
  op: 'deleteSourceIdentity',
  roles: 1,
  fit: (m) => m.records.filter((r) => r.state !== 'deleted').map((r) => [r]),
  describe: ([r]) => `deleteSourceIdentity ${r!.label}`,
  verdict: (_m, [r]) => ({ verdict: r!.state === 'deleted' || r!.state === 'unknown' ? 'either' : 'allow' }),
  content: (_w, _m, [r]) => ({ source: src(r!) }),
  row: (c) => c.requirements.hardDelete,
  apply(_m, [r]) {
    r!.state = 'deleted';
    return [];
  },
  checkReply(reply, m, [_r], before, _after, [g, wasLive]) {
    const link = before.get(g!);
    if (!wasLive || !link) return [];
    const gone = m.members(g!).length === 0;
    const member = gone ? 'linkIdsDeleted' : 'linkIdsModified';
    return list(reply.content?.[member]).includes(link)
      ? []
      : [
          `${gone ? 'the identity had no other source' : 'the identity keeps other sources'}, so ${member} must name ${link}; reply: ${JSON.stringify(reply.content)}`,
        ];
  },
};

const merge: StepKind = {
  name: 'merge',
  roleNames: ['survivor', 'retired'],
  op: 'mergeIdentities',
  roles: 2,
  fit: (m) => pairs(m, (a, b) => active(a) && active(b) && a.group !== b.group && sameKind(a, b)),
  describe: ([s, r]) => `mergeIdentities survivor ${s!.label}, retire ${r!.label}`,
  verdict: (_m, [s, r], c) =>
    crossKind(c, s!, r!, c.requirements.sameKind?.merge) ?? {
      verdict: s !== r && active(s!) && active(r!) && s!.group !== r!.group ? 'allow' : 'either',
    },
  content: (_w, _m, [s, r]) => ({ toSurviveSource: src(s!), toRetireSource: src(r!) }),
  openUnknown: ([s, r]) => (s === r ? [] : [r!]),
  bond: ([, r]) => r,
  row: (c) => c.requirements.merge,
  apply(m, [s, r]) {
    // Other sources of the retired record's identity: the seeds say only "a single surviving identity results".
    const others = m
      .members(r!.group)
      .filter((x) => x !== r)
      .map((x) => x.label);
    r!.state = 'retired';
    r!.retiredInto = s!.label;
    r!.mergedGroup = s!.group;
    return others;
  },
  checkReply(reply, _m, [s], _before, after) {
    const link = after.get(s!.group);
    return reply.content?.linkId !== link ? [`reply linkId ${reply.content?.linkId} is not the surviving identity ${link}`] : [];
  },
};

const unmerge: StepKind = {
  name: 'unmerge',
  roleNames: ['from', 'unmerged'],
  op: 'unmergeIdentities',
  roles: 2,
  fit: (m) => pairs(m, (from, r) => r.state === 'retired' && r.retiredInto === from.label),
  describe: ([from, r]) => `unmergeIdentities ${r!.label} from ${from!.label}`,
  verdict: (_m, [from, r]) => ({ verdict: r!.state === 'retired' && r!.retiredInto === from!.label && active(from!) ? 'allow' : 'either' }),
  content: (_w, _m, [from, r]) => ({ unmergeFromSource: src(from!), unmergeSource: src(r!) }),
  row: (c) => c.requirements.unmerge,
  apply(m, [, r]) {
    r!.state = 'active';
    r!.retiredInto = undefined;
    r!.group = m.newGroup();
    return [];
  },
  checkReply(reply, _m, [from, r], _before, after) {
    const problems: string[] = [];
    if (reply.content?.unmergedId !== after.get(r!.group))
      problems.push(`unmergedId ${reply.content?.unmergedId} is not ${r!.label}'s new identity ${after.get(r!.group)}`);
    if (reply.content?.unmergedFromId !== after.get(from!.group))
      problems.push(`unmergedFromId ${reply.content?.unmergedFromId} is not ${from!.label}'s identity ${after.get(from!.group)}`);
    return problems;
  },
};

const link: StepKind = {
  name: 'link',
  roleNames: ['into', 'moved'],
  op: 'linkIdentities',
  roles: 2,
  fit: (m) => pairs(m, (to, r) => active(to) && active(r) && to.group !== r.group && sameKind(to, r)),
  describe: ([to, r]) => `linkIdentities ${r!.label} into ${to!.label}`,
  verdict: (_m, [to, r], c) =>
    crossKind(c, to!, r!, c.requirements.sameKind?.link) ?? {
      verdict: active(to!) && active(r!) && to!.group !== r!.group ? 'allow' : 'either',
    },
  content: (_w, _m, [to, r]) => ({ linkToSource: src(to!), source: src(r!) }),
  row: (c) => c.requirements.link,
  apply(m, [to, r]) {
    const others = m
      .members(r!.group)
      .filter((x) => x !== r)
      .map((x) => x.label);
    r!.group = to!.group;
    return others;
  },
  checkReply(reply, _m, [to], _before, after) {
    const l = after.get(to!.group);
    return reply.content?.linkId !== l ? [`reply linkId ${reply.content?.linkId} is not the identity of linkToSource ${l}`] : [];
  },
};

const unlink: StepKind = {
  name: 'unlink',
  roleNames: ['from', 'moved'],
  op: 'unlinkIdentities',
  roles: 2,
  fit: (m) => pairs(m, (from, r) => active(from) && active(r) && from.group === r.group),
  describe: ([from, r]) => `unlinkIdentities ${r!.label} from ${from!.label}`,
  verdict: (_m, [from, r]) => ({ verdict: from !== r && active(from!) && active(r!) && from!.group === r!.group ? 'allow' : 'either' }),
  content: (_w, _m, [from, r]) => ({ unlinkFromSource: src(from!), source: src(r!) }),
  row: (c) => c.requirements.unlink,
  apply(m, [, r]) {
    r!.group = m.newGroup();
    return [];
  },
  checkReply(reply, _m, [from, r], _before, after) {
    const problems: string[] = [];
    if (reply.content?.unlinkedId !== after.get(r!.group))
      problems.push(`unlinkedId ${reply.content?.unlinkedId} is not ${r!.label}'s new identity ${after.get(r!.group)}`);
    if (reply.content?.unlinkedFromId !== after.get(from!.group))
      problems.push(`unlinkedFromId ${reply.content?.unlinkedFromId} is not ${from!.label}'s identity ${after.get(from!.group)}`);
    return problems;
  },
};

const deactivate: StepKind = {
  name: 'deactivate',
  roleNames: [],
  op: 'deactivateSourceWs',
  roles: 1,
  fit: (m) => m.records.filter(active).map((r) => [r]),
  describe: ([r]) => `deactivateSourceWs ${r!.label}`,
  verdict: (_m, [r]) => ({ verdict: active(r!) ? 'allow' : 'either' }),
  content: (w, _m, [r]) => ({ [w.t.profile.members.deactivateSource]: src(r!) }),
  row: (c) => c.requirements.deactivate!,
  // Excluded from matching but still visible: the record stays in its identity.
  apply(_m, [r]) {
    r!.state = 'deactivated';
    return [];
  },
};

const reactivate: StepKind = {
  name: 'reactivate',
  roleNames: [],
  op: 'reactivateSourceWs',
  roles: 1,
  fit: (m) => m.records.filter((r) => r.state === 'deactivated').map((r) => [r]),
  describe: ([r]) => `reactivateSourceWs ${r!.label}`,
  verdict: (_m, [r], c) =>
    r!.state === 'deactivated'
      ? { verdict: 'allow' }
      : r!.state === 'deleted'
        ? { verdict: 'inert', rejectCites: c.requirements.hardDelete.effect }
        : { verdict: 'either' },
  content: (w, _m, [r]) => ({ [w.t.profile.members.reactivateSource]: src(r!) }),
  row: (c) => c.requirements.reactivate!,
  // "Returns to its original link ID": the record keeps its model identity, whose link ID must not change.
  apply(_m, [r]) {
    r!.state = 'active';
    return [];
  },
  checkReply(_reply, _m, [r], before, after) {
    const was = before.get(r!.group);
    const now = after.get(r!.group);
    return was && now !== was ? [`${r!.label} was deactivated in identity ${was} but was reactivated into ${now}`] : [];
  },
};

/**
 * An exact copy of a deactivated record, posted from a new source of the run: it must not join the
 * deactivated record's link ID ("excluded from future matching"). The copy is hard-deleted at once,
 * so the walk's records stay far apart (it is never part of the model).
 */
const copyOfDeactivated: StepKind = {
  name: 'post copy of deactivated',
  roleNames: [],
  op: 'postIdentity',
  roles: 1,
  fit: (m) => m.records.filter((r) => r.state === 'deactivated').map((r) => [r]),
  describe: ([r]) => `postIdentity of an exact copy of ${r!.label} from a new source (then deleteSourceIdentity of the copy)`,
  verdict: (_m, [r]) => ({ verdict: r!.state === 'deactivated' ? 'allow' : 'either' }),
  content(w, _m, [r]) {
    const source = w.t.source(1);
    w.pending = { source, identity: r!.identity };
    return postContent({ ...r!.identity, sources: [{ name: source.name, id: source.id }] }, source, w.t.profile.sourcePlacement);
  },
  row: (c) => ({ effect: c.requirements.deactivatedExcluded! }),
  apply: () => [],
  async probe(w, m, [r]) {
    const copy = w.pending!.source;
    const found = await w.call('nativeIdQuery', { source: { name: copy.name, id: copy.id } });
    w.assertNoServerError(found, 'nativeIdQuery');
    const gone = await w.call('deleteSourceIdentity', { source: { name: copy.name, id: copy.id } });
    w.assertNoServerError(gone, 'deleteSourceIdentity');
    const held = m.lastLinks.get(r!.group);
    return held && found.content?.linkId === held
      ? [`the copy joined ${r!.label}'s identity ${held}, though ${r!.label} is deactivated`]
      : [];
  },
};

/** Merge and link attempts across identity kinds (provider: practitioner and facility); the seeds reject them. */
const crossKindPairs = (m: IdentityModel) => pairs(m, (a, b) => active(a) && active(b) && !sameKind(a, b));
const crossMerge: StepKind = { ...merge, name: 'cross-type merge', fit: crossKindPairs };
const crossLink: StepKind = { ...link, name: 'cross-type link', fit: crossKindPairs };

export const STEP_KINDS: StepKind[] = [postNew, repost, softDelete, restore, hardDelete, merge, unmerge, link, unlink];

/** The step kinds of a service: its state table's rows, and cross-kind attempts where it has identity kinds. */
export function stepKindsFor(c: WalkConfig): StepKind[] {
  const r = c.requirements;
  return [
    postNew,
    repost,
    ...(r.softDelete && r.restore ? [softDelete, restore] : []),
    ...(r.deactivate && r.reactivate ? [deactivate, reactivate] : []),
    ...(r.deactivatedExcluded ? [copyOfDeactivated] : []),
    hardDelete,
    merge,
    unmerge,
    link,
    unlink,
    ...(c.kinds ? [crossMerge, crossLink] : []),
  ];
}

/** The record states of a service's state table (the model's `unknown` is none of them). */
export function recordStatesFor(c: WalkConfig): RecordState[] {
  const r = c.requirements;
  return [
    'active',
    ...(r.softDelete ? ['soft-deleted' as const] : []),
    ...(r.deactivate ? ['deactivated' as const] : []),
    'retired',
    'deleted',
  ];
}

/** A step failed: carries the requirement IDs and the step text. */
export class StepFailure extends ConformanceFailure {}

/**
 * One step of a walk: a kind plus the choices fast-check generated and shrinks. A walk's commands
 * are a pool, longer than the walk: a command runs only when its kind can exercise a coverage key
 * no step of the check exercised yet (scenarios/shared/model/steer.ts), or when no kind could;
 * fast-check skips the others, and shrinks only the commands that ran.
 */
export class StepCommand implements fc.AsyncCommand<IdentityModel, WalkReal, false> {
  private text?: string;

  constructor(
    readonly kind: StepKind,
    /** Index into the ranked options (0: the one with most new keys, then the most recent records). */
    readonly pick: number,
    /** Choose among the records that make the step interesting (true) or among all records (false). */
    readonly fitting: boolean,
    /** The walk's step kinds (whether any of them could exercise something new decides whether this one runs). */
    readonly peers: readonly StepKind[] = [kind],
    /** Labels of the records to name (a tour's step), instead of a ranked choice. */
    readonly named?: readonly string[],
  ) {}

  /** The ranked options of this command's kind from the model's state (empty: it cannot run). */
  private options(m: IdentityModel): Option[] {
    if (this.named) {
      const recs = this.named.map((l) => m.records.find((r) => r.label === l)!);
      return [{ recs, keys: stepKeys(this.kind, recs, m.records), score: 0 }];
    }
    return rankOptions(m, this.kind, this.fitting);
  }

  /**
   * Runs when it can name its records (a fitting step: records that fit it) and either exercises a
   * key not exercised yet, or no step of any kind could (then it runs as an unsteered step would).
   */
  check(m: Readonly<IdentityModel>): boolean {
    if (m.stepsRun >= m.maxSteps) return false;
    const options = this.options(m as IdentityModel);
    return options.length > 0 && (options[0]!.score > 0 || !anythingNew(m as IdentityModel, this.peers));
  }

  async run(m: IdentityModel, w: WalkReal): Promise<void> {
    const k = this.kind;
    const c = w.config;
    m.stepsRun++;
    const options = this.options(m);
    const { recs, keys } = options[this.pick % options.length]!;
    m.exercise(keys);
    const tags = historyTags(k, recs, m.records);
    const states = recs.map((r) => `${r.label} ${r.kind ? `${r.kind} ` : ''}${r.state}`).join(', ');
    this.text = `${k.describe(recs)}${states ? ` (${states})` : ''}`;
    w.beginStep(this.text);
    const { verdict, rejectCites } = k.verdict(m, recs, c);
    const row = k.row(c);
    const fail = (cites: string[], what: string): never => {
      throw new StepFailure(cites, `step ${w.steps.length - w.startSteps}, ${this.text}: ${what}`);
    };
    const formerGroup = recs.map((r) => r.group);
    const wasLive = recs.length === 1 && isLive(recs[0]!) ? 1 : 0;
    const reply = await w.call(k.op, k.content(w, m, recs));
    w.assertNoServerError(reply, k.op);
    const accepted = reply.success === true && (reply.status ?? 0) < 300;
    const rejected = isRejection(reply);
    w.count(`${k.name}:${verdict}:${accepted ? 'ok' : 'rejected'}`);
    if (!accepted && !rejected) fail([c.requirements.noServerError], `neither a success nor a rejection: ${describeReply(reply)}`);
    if (verdict === 'allow' && rejected)
      fail([row.effect], `the seeds allow this step from that state, but it was rejected: ${describeReply(reply)}`);
    if (verdict === 'reject' && accepted) fail([rejectCites!], 'the seeds do not allow this step from that state, but it succeeded');
    if (accepted && k.probe) {
      const found = await k.probe(w, m, recs);
      if (verdict === 'allow' && found.length) fail([row.effect], found.join('; '));
    }

    const before = new Map(m.lastLinks);
    let following: string[] = [];
    if (accepted && verdict === 'allow') following = k.apply(m, recs, reply, w);
    else if (accepted && verdict === 'inert') following = [];
    else if (accepted) {
      const unknown = k.openUnknown?.(recs) ?? [];
      following = open(m, recs).filter((l) => !unknown.some((r) => r.label === l));
      for (const r of unknown) r.state = 'unknown';
      // Whether a step the seeds leave open also changed a deactivated record's activation is not
      // shown; nor, where records can be deactivated, whether a record of unknown state is active.
      for (const r of recs)
        if (r.state === 'deactivated' || (r.state === 'unknown' && c.requirements.deactivate)) {
          r.state = 'unknown';
          following = following.filter((l) => l !== r.label);
        }
    }
    if (accepted) addHistory(tags, k.bond?.(recs));
    const { problems, links } = await observeAgainstModel(m, w, following, verdict === 'allow');
    const cites = accepted ? [verdict === 'inert' ? rejectCites! : row.effect] : [c.requirements.rejectedNoChange];
    if (problems.length)
      fail(
        cites,
        `${accepted ? 'after it succeeded' : `after it was rejected (${describeReply(reply)})`} the identities differ from the model [${m.describe()}]:\n  - ${problems.join('\n  - ')}`,
      );
    if (accepted && verdict === 'allow' && k.checkReply) {
      const wrong = k.checkReply(reply, m, recs, before, links, [...formerGroup, wasLive]);
      if (wrong.length && row.reply) fail([row.reply], wrong.join('; '));
    }
    m.lastLinks = links;
    m.touch(recs.map((r) => r.label).reverse()); // the record a step moves (its last role) first
  }

  toString(): string {
    return this.text ?? `${this.kind.name}(${this.pick}${this.fitting ? '' : ', any'})`;
  }
}

/** fast-check arbitraries of the walk's commands; `fitting` choices four times as likely as arbitrary ones. */
export function commandArbitraries(kinds: StepKind[] = STEP_KINDS) {
  const arbitrary = fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
  // Index 0 of the ranked options is the one with new keys, on the records the latest steps
  // touched: favour it (3 in 4), so steps chain on the same records and reach new sequences.
  const pick = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(50) });
  return kinds.map((kind) =>
    fc.tuple(pick, arbitrary).map(([i, any]) => new StepCommand(kind, i, !any, kinds) as fc.AsyncCommand<IdentityModel, WalkReal, false>),
  );
}

/**
 * A tour: a fixed chain of state-table rows on the walk's starting records (A, B, C), run before
 * the generated walks so that the chains a defect may hide behind are exercised on every run
 * whatever the seed (a generated walk meets a given three- or four-step chain only now and then).
 * Each step names its records in the order of its kind's roles: link [into, moved], merge
 * [survivor, retired], unlink [from, moved]. A tour runs only where the service has every kind
 * it names; `mixedKinds` starts from records of alternating identity kinds (provider:
 * practitioner, facility, practitioner), otherwise all start of one kind.
 * Source: organization-identity-api.md and person-provider-identity-api.md, "States and transitions".
 */
export interface Tour {
  name: string;
  steps: Array<[kind: string, ...labels: string[]]>;
  mixedKinds?: boolean;
}

export const TOURS: Tour[] = [
  {
    name: 'restore after the identity it left was merged away',
    steps: [
      ['link', 'A', 'B'],
      ['soft delete', 'A'],
      ['merge', 'C', 'B'],
      ['restore', 'A'],
    ],
  },
  {
    name: 'merge of an identity holding a linked source',
    steps: [
      ['link', 'B', 'C'],
      ['merge', 'A', 'B'],
    ],
  },
  {
    name: 'unlink from an identity that absorbed a merge',
    steps: [
      ['merge', 'A', 'B'],
      ['link', 'A', 'C'],
      ['unlink', 'A', 'C'],
    ],
  },
  {
    name: 'update after an unlink',
    steps: [
      ['link', 'A', 'B'],
      ['unlink', 'A', 'B'],
      ['update', 'B'],
    ],
  },
  {
    name: 'deactivate and reactivate a linked record',
    steps: [
      ['link', 'A', 'B'],
      ['deactivate', 'B'],
      ['reactivate', 'B'],
    ],
  },
  {
    name: 'cross-type merge and link after a link',
    steps: [
      ['link', 'A', 'C'],
      ['cross-type merge', 'A', 'B'],
      ['cross-type link', 'C', 'B'],
    ],
    mixedKinds: true,
  },
];

/** The tours a service's state table allows (every kind they name is one of its step kinds). */
export function toursFor(c: WalkConfig): Tour[] {
  const names = new Set(stepKindsFor(c).map((k) => k.name));
  return TOURS.filter((t) => (!t.mixedKinds || c.kinds) && t.steps.every(([kind]) => names.has(kind)));
}

/** The commands of a tour's steps. */
export function tourCommands(c: WalkConfig, tour: Tour): StepCommand[] {
  const kinds = stepKindsFor(c);
  return tour.steps.map(([name, ...labels]) => new StepCommand(kinds.find((k) => k.name === name)!, 0, true, kinds, labels));
}

/**
 * Observes the walk's records until they agree with the model or the consistency budget is spent
 * (reads may lag writes): `following` records join whatever identity the deployment gave them
 * (and must stay live when `mustBeLive`). Returns the problems left and each model identity's link ID.
 */
async function observeAgainstModel(
  m: IdentityModel,
  w: WalkReal,
  following: string[],
  mustBeLive: boolean,
): Promise<{ problems: string[]; links: Map<number, string> }> {
  const start = m.snapshot();
  return w.t.settle(
    'the identities agree with the model',
    async () => {
      m.restore(start);
      const [obs, early] = await Promise.all([lookupAll(w, m), askEarly(w, m)]);
      const found = adopt(m, obs, following, mustBeLive, w.t.profile.softDeletedLookup);
      const { problems: partition, links } = comparePartition(m, obs, w.t.profile.softDeletedLookup);
      found.push(...partition, ...(await checkIdentities(w, m, links, early)));
      return { problems: found, links };
    },
    (o) => o.problems.length === 0,
  );
}

/**
 * The starting state of a walk or tour: `n` new, distinct identities posted together (they do
 * not depend on one another) and observed once, as one step that exercises the post-new row once
 * per identity. Their data is drawn in label order before anything is sent, so a replay posts
 * the same identities whatever order the replies arrive in.
 * @throws StepFailure when a post is rejected (citing the post requirement) or answers neither
 *   success nor rejection, or when the identities then differ from the model
 */
export async function postStart(m: IdentityModel, w: WalkReal, n: number): Promise<void> {
  const c = w.config;
  const planned = Array.from({ length: n }, (_, i) => newIdentity(w, m, m.records.length + i));
  const labels = planned.map((_, i) => labelFor(m.records.length + i));
  const text = `postIdentity of ${n} new, distinct identities together (${labels.join(', ')})`;
  w.beginStep(text);
  const fail = (cites: string[], what: string): never => {
    throw new StepFailure(cites, `start, ${text}: ${what}`);
  };
  const replies = await Promise.all(planned.map((p) => w.call(postNew.op, postContent(p.identity, p.source, w.t.profile.sourcePlacement))));
  const following: string[] = [];
  replies.forEach((reply, i) => {
    w.assertNoServerError(reply, postNew.op);
    const accepted = reply.success === true && (reply.status ?? 0) < 300;
    w.count(`${postNew.name}:allow:${accepted ? 'ok' : 'rejected'}`);
    if (!accepted)
      fail(
        [isRejection(reply) ? c.requirements.post : c.requirements.noServerError],
        `${labels[i]} was ${isRejection(reply) ? 'rejected' : 'neither accepted nor rejected'}: ${describeReply(reply)}`,
      );
    m.exercise(stepKeys(postNew, [], m.records));
    w.pending = planned[i];
    following.push(...postNew.apply(m, [], reply, w));
  });
  const { problems, links } = await observeAgainstModel(m, w, following, true);
  if (problems.length)
    fail(
      [c.requirements.post],
      `after they succeeded the identities differ from the model [${m.describe()}]:\n  - ${problems.join('\n  - ')}`,
    );
  m.lastLinks = links;
  w.startSteps = w.steps.length;
}
