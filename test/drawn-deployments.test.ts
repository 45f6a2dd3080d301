/**
 * Drawn deployments (reference/variants/drawn.ts, detection/drawn.ts) and the operating-condition
 * variants they draw (reference/variants/transport.ts slow-tail and restarts, busy.ts), at unit
 * level: a seed always draws the same deployment, every draw is one the reference accepts, every
 * dimension is met over many seeds; a drawn run's gating failure comes back with its draw and a
 * replay line; the hooks do what their catalogue entries say, on fake clocks and dice. Whole runs
 * against drawn deployments are `npm run detection`'s job.
 */
import { describe, expect, it } from 'vitest';
import { drawnSpecs, judgeDrawnRun, parseDrawnSeeds, replayLine } from '../detection/drawn.js';
import type { DetectionRow } from '../detection/reporter.js';
import { profileOf, plannedVariants } from '../detection/variants.js';
import { VARIANTS } from '../reference/variants/catalogue.js';
import { DIMENSIONS, drawDeployment } from '../reference/variants/drawn.js';
import { MAX_RECORDS, NAMESAKE_SCORE_BELOW, OTHER_USERS_SOURCE, OtherUsers, busy } from '../reference/variants/busy.js';
import { laggingIndexOf } from '../reference/variants/lag.js';
import { VariantSet, parseVariantList } from '../reference/variants/registry.js';
import { restarts, slowTail } from '../reference/variants/transport.js';
import { REFERENCE_SERVICES } from '../reference/services.js';
import { ServiceStore } from '../reference/store.js';
import type { InterceptInfo } from '../reference/hooks.js';

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe('drawn deployments', () => {
  it('a seed always draws the same deployment, and REFERENCE_VARIANTS=drawn=<seed> stands for it', () => {
    expect(drawDeployment(7)).toEqual(drawDeployment(7));
    expect(drawDeployment(7)).not.toEqual(drawDeployment(8));
    expect(parseVariantList('drawn=7').map((v) => (v.value === undefined ? v.name : `${v.name}=${v.value}`))).toEqual(
      drawDeployment(7),
    );
  });

  it('every draw is a deployment the reference accepts (no conflict, values in range) with a valid profile', () => {
    for (const seed of SEEDS) {
      const specs = drawDeployment(seed);
      expect(() => new VariantSet(specs), `drawn=${seed}: ${specs.join(',')}`).not.toThrow();
      expect(() => profileOf(plannedVariants(specs)), `drawn=${seed}`).not.toThrow();
    }
  });

  it('over many seeds every dimension draws each of its variants, and the reference as it is', () => {
    const draws = SEEDS.map((s) => drawDeployment(s));
    for (const dim of DIMENSIONS) {
      for (const name of dim.variants) {
        expect(VARIANTS.has(name), `${dim.what}: ${name} is in the catalogue`).toBe(true);
        expect(
          draws.some((specs) => specs.some((s) => s.split('=')[0] === name)),
          `${dim.what}: ${name}`,
        ).toBe(true);
      }
      expect(
        draws.some((specs) => !specs.some((s) => dim.variants.includes(s.split('=')[0]!))),
        `${dim.what}: the reference's own behaviour`,
      ).toBe(true);
    }
  });

  it('operating conditions are drawn: throttling with and without Retry-After, restarts, slow tails, transient failures and other users writing', () => {
    const drawn = new Set(SEEDS.flatMap((s) => drawDeployment(s)).map((s) => s.split('=')[0]));
    for (const name of ['throttled', 'throttled-bare', 'restarts', 'slow-tail', 'transient', 'busy'])
      expect(drawn).toContain(name);
    // Never the variant whose checks may end could-not-judge (judged 'no-fail'): a drawn run is judged 'pass'.
    expect(drawn).not.toContain('transient-reset');
  });

  it('drawnSpecs names each run drawn-<seed> with its draw', () => {
    expect(drawnSpecs([3, 9])).toEqual([
      { seed: 3, name: 'drawn-3', specs: drawDeployment(3) },
      { seed: 9, name: 'drawn-9', specs: drawDeployment(9) },
    ]);
  });

  it('--drawn-seeds takes a-b or a,b,c and refuses anything else in one line', () => {
    expect(parseDrawnSeeds('3-6')).toEqual([3, 4, 5, 6]);
    expect(parseDrawnSeeds('1, 5,9')).toEqual([1, 5, 9]);
    for (const bad of ['6-3', 'a-b', '1,,2', '-1', '1.5', '2,2'])
      expect(() => parseDrawnSeeds(bad), bad).toThrow(/^(expected|a seed is listed twice)[^\n]*$/);
  });

  it('a gating failure of a drawn run is a false positive with its draw and a replay line; EXPECT-only failures are not', () => {
    const d = drawnSpecs([4])[0]!;
    const row = (checkId: string, verdict: string, failed: string[], name: string): DetectionRow => ({
      project: d.name,
      file: 'scenarios/organization/post.test.ts',
      checkId,
      verdict,
      failedRequirements: failed,
      verifies: failed.length ? failed : ['ORG-POST-ADDS'],
      name,
    });
    const o = judgeDrawnRun(
      d,
      [
        row('organization/post/a', 'fail', ['ORG-POST-ADDS'], "a post (Alice's) [ORG-POST-ADDS]"),
        row('organization/post/b', 'fail', ['ORG-BADINPUT-MISSING-IDENTITY'], 'b [ORG-BADINPUT-MISSING-IDENTITY]'),
        row('organization/post/c', 'pass', [], 'c [ORG-POST-ADDS]'),
      ],
      12345,
    );
    expect(o.passed).toBe(false);
    expect(o.specs).toEqual(drawDeployment(4));
    expect(o.falsePositives.map((f) => f.checkId)).toEqual(['organization/post/a']);
    expect(o.expectOnly.map((f) => f.checkId)).toEqual(['organization/post/b']);
    expect(o.falsePositives[0]!.replay).toBe(
      String.raw`REFERENCE_VARIANTS=drawn=4 CONFORMANCE_SEED=12345 npm run conformance -- scenarios/organization/post.test.ts -t 'a post \(Alice'\''s\) \[ORG-POST-ADDS\]'`,
    );
    expect(judgeDrawnRun(d, [], 1).problem).toMatch(/reported no checks/);
  });

  it('a check that could not judge makes a drawn run INCOMPLETE, listed apart; any other error is a false positive', () => {
    const d = drawnSpecs([4])[0]!;
    const row = (checkId: string, couldNotJudge: boolean): DetectionRow => ({
      project: d.name,
      file: 'scenarios/organization/notifications.test.ts',
      checkId,
      verdict: 'error',
      failedRequirements: [],
      verifies: ['ORG-NOTIF-PAGING'],
      name: checkId,
      ...(couldNotJudge ? { couldNotJudge: true } : {}),
    });
    const unjudged = judgeDrawnRun(d, [row('organization/notifications/paging', true)], 1);
    expect(unjudged.passed).toBe(true);
    expect(unjudged.falsePositives).toEqual([]);
    expect(unjudged.incomplete.map((f) => f.checkId)).toEqual(['organization/notifications/paging']);
    const broken = judgeDrawnRun(d, [row('organization/notifications/paging', false)], 1);
    expect(broken.passed).toBe(false);
    expect(broken.incomplete).toEqual([]);
  });

  it('the replay pattern is a regular expression matching exactly the check name', () => {
    const name =
      'tours over the state table (fixed chains of rows every run takes) keep replies [ORG-LINK-EFFECT ORG-MERGE-REPLY]';
    const pattern = /-t '(.*)'$/.exec(replayLine(1, 2, 'f.test.ts', name))![1]!;
    expect(new RegExp(pattern).test(name)).toBe(true);
    expect(new RegExp(pattern).test(name.replace('(', ''))).toBe(false);
  });
});

/** An intercept hook's verdict for one fake request: true when it answered (with the status it wrote). */
async function intercepted(hook: ReturnType<typeof restarts>[number], service = 'organization') {
  let status: number | undefined;
  const res = {
    writeHead: (s: number) => {
      status = s;
      return { end: () => undefined };
    },
  };
  const answered = await hook.intercept!({
    service,
    operation: 'nativeIdQuery',
    req: { resume: () => undefined },
    res,
  } as unknown as InterceptInfo);
  return { answered, status };
}

describe('operating-condition hooks', () => {
  it('slow-tail delays the drawn share of requests by the delay (plus up to half), and no other', async () => {
    const dice = [0.01, 0.5, 0.9, 0.2];
    const [hook] = slowTail(0.1, 60, () => dice.shift()!);
    let t = Date.now();
    expect(await hook!.intercept!({} as InterceptInfo)).toBe(false);
    const slow = Date.now() - t;
    expect(slow).toBeGreaterThanOrEqual(55);
    t = Date.now();
    await hook!.intercept!({} as InterceptInfo);
    expect(Date.now() - t).toBeLessThan(40);
  });

  it('restarts answer every request of a service HTTP 503 during its outage, none outside it, each service on its own schedule', async () => {
    let now = 1_000_000;
    // random 0: the first gap is the shortest allowed (the outage length), so the outage starts 2 s after the first request.
    const [hook] = restarts(
      2000,
      30000,
      () => 0,
      () => now,
    );
    expect((await intercepted(hook!)).answered).toBe(false);
    now += 1999;
    expect((await intercepted(hook!)).answered).toBe(false);
    now += 1;
    expect(await intercepted(hook!)).toEqual({ answered: true, status: 503 });
    // Another service's schedule starts with its own first request.
    expect((await intercepted(hook!, 'person')).answered).toBe(false);
    now += 1999;
    expect((await intercepted(hook!)).answered).toBe(true);
    now += 1;
    expect((await intercepted(hook!)).answered).toBe(false);
  });
});

const matcherOf = (service: 'organization' | 'person' | 'provider') => REFERENCE_SERVICES[service]!.matcher;

describe('busy: other users writing', () => {
  const store = (service: 'organization' | 'person' | 'provider' = 'organization') => new ServiceStore(service);
  const seq = (seed: number) => {
    let a = seed;
    return () => ((a = (a * 16807) % 2147483647) - 1) / 2147483646;
  };

  it('writes about perSecond records a second while requests come, at most two seconds of backlog after a quiet spell', () => {
    let now = 0;
    const s = store();
    const users = new OtherUsers(s, 5, seq(1), () => now);
    users.catchUp(matcherOf('organization')); // starts the clock
    now += 1000;
    users.catchUp(matcherOf('organization'));
    const count = () => Object.values(users.made).reduce((a, b) => a + b, 0);
    expect(count()).toBe(5);
    now += 60_000;
    users.catchUp(matcherOf('organization'));
    expect(count()).toBe(15);
    expect(s.notifications.length).toBe(15);
    expect([...s.records.values()].every((r) => r.source.name === OTHER_USERS_SOURCE)).toBe(true);
  });

  it("an update keeps the record in its identity and notifies UPDATE; a near duplicate links into its original's identity", () => {
    const s = store();
    const users = new OtherUsers(s, 5, seq(2), () => 0);
    const m = matcherOf('organization');
    expect(users.write(m, 'update')).toBe('new'); // nothing to update yet
    const first = [...s.records.values()][0]!;
    expect(users.write(m, 'update')).toBe('update');
    expect(s.records.size).toBe(1);
    expect(s.notifications.at(-1)!.notificationType).toBe('UPDATE');
    expect(users.write(m, 'near-duplicate')).toBe('near-duplicate');
    const twin = [...s.records.values()][1]!;
    expect(twin.linkId).toBe(first.linkId);
    expect(s.notifications.at(-1)!.notificationType).toBe('MATCH');
  });

  it.each(['organization', 'person', 'provider'] as const)(
    '%s: a namesake of a run record carries (part of) its names only, scores below every drawn threshold and joins no identity of the run',
    (service) => {
      const s = store(service);
      const m = matcherOf(service);
      const users = new OtherUsers(s, 5, seq(3), () => 0);
      const own = { name: 'cf_test_a', id: 'cf-run-1' };
      const data: Record<string, unknown> =
        service === 'person'
          ? {
              names: [{ firstName: 'Marcellus', middleName: 'Jaxtyn', lastName: 'MacGyver' }],
              datesOfBirth: [{ dateOfBirth: '1971-04-02' }],
              ssns: [{ ssn: '912-34-5678' }],
              addresses: [{ line1: '6518 Hettinger Drives', city: 'Fort Samanta', postalCode: '62204' }],
            }
          : service === 'provider'
            ? {
                names: [{ first: 'Marcellus', last: 'MacGyver', credential: 'MD' }],
                npis: [{ npi: '1999999999', entityTypeCode: '1' }],
                addresses: [{ line1: '6518 Hettinger Drives', city: 'Fort Samanta', postalCode: '62204' }],
              }
            : {
                organizationNames: [{ legalBusinessName: 'Hoppe Nursing and Rehabilitation LLC' }],
                addresses: [{ line1: '6518 Hettinger Drives', city: 'Fort Samanta', postalCode: '62204' }],
                employerIdentificationNumber: [{ value: '07-1234567' }],
              };
      REFERENCE_SERVICES[service]!.handlers.postIdentity!({
        store: s,
        content: { identity: { ...data, sources: [own] } },
        envelope: {},
        matcher: m,
        faults: new Set(),
        members: {
          restoreSource: '',
          deactivateSource: '',
          reactivateSource: '',
          relationshipSubject: '',
          relationshipObject: '',
        },
      });
      users.sawPost(`${own.name}\u0000${own.id}`);
      const runLink = s.get(own)!.linkId;
      let namesakes = 0;
      for (let i = 0; i < 20; i++) if (users.write(m, 'namesake') === 'namesake') namesakes++;
      expect(namesakes).toBeGreaterThan(0);
      const theirs = [...s.records.values()].filter((r) => r.source.name === OTHER_USERS_SOURCE);
      for (const r of theirs) {
        expect(r.linkId).not.toBe(runLink);
        expect(m.score(r.data, data)).toBeLessThan(NAMESAKE_SCORE_BELOW);
        // None of the run's values but (part of) its names.
        const text = JSON.stringify(r.data);
        for (const v of ['1971-04-02', '912-34-5678', '6518 Hettinger', '1999999999', '07-1234567'])
          expect(text).not.toContain(v);
      }
      expect(
        theirs.some((r) => JSON.stringify(r.data).includes(service === 'organization' ? 'Hoppe' : 'MacGyver')),
      ).toBe(true);
    },
  );

  it(`creates at most ${MAX_RECORDS} records per service, then only updates`, () => {
    const s = store('provider');
    const users = new OtherUsers(s, 5, seq(4), () => 0);
    while (users.created.length < MAX_RECORDS) users.write(matcherOf('provider'));
    const updates = users.made.update;
    for (let i = 0; i < 50; i++) expect(users.write(matcherOf('provider'))).toBe('update');
    expect(users.created.length).toBe(MAX_RECORDS);
    expect(s.records.size).toBe(MAX_RECORDS);
    expect(users.made.update).toBe(updates + 50);
  });

  it("a lagging search index sees other users' writes (after its lag)", () => {
    const s = store();
    const ix = laggingIndexOf(s, 0);
    new OtherUsers(s, 5, seq(5), () => 0).write(matcherOf('organization'), 'new');
    expect(ix.view().records.size).toBe(1);
  });

  it("the busy hook writes through the service's own store on each handled request, and notes the run's posts", () => {
    let now = 0;
    const hooks = busy(10, seq(6), () => now);
    const s = store('person');
    for (const h of hooks) h.setupStore?.(s);
    const handler = hooks.find((h) => h.handler)!.handler!;
    const base = {
      store: s,
      content: {},
      envelope: {},
      matcher: matcherOf('person'),
      faults: new Set<string>(),
      members: {},
    };
    const ctx = base as never;
    handler(() => ({}), ctx, 'identityIdQuery');
    now += 1000;
    handler(() => ({}), ctx, 'identityIdQuery');
    // Ten writes (new records, updates, near duplicates), each with its notification.
    expect(s.notifications).toHaveLength(10);
    expect([...s.records.values()].every((r) => r.source.name === OTHER_USERS_SOURCE)).toBe(true);
    const own = { name: 'cf_test_a', id: 'cf-run-2' };
    const post = {
      ...base,
      content: { identity: { names: [{ firstName: 'Ada', lastName: 'Quist' }], sources: [own] } },
    } as never;
    handler(REFERENCE_SERVICES.person!.handlers.postIdentity!, post, 'postIdentity');
    now += 10_000;
    for (let i = 0; i < 5; i++) {
      now += 1000;
      handler(() => ({}), ctx, 'identityIdQuery');
    }
    expect(
      [...s.records.values()].some(
        (r) => r.source.name === OTHER_USERS_SOURCE && JSON.stringify(r.data).includes('Quist'),
      ),
    ).toBe(true);
  });
});
