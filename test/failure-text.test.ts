/**
 * How a failure reads (harness/failure.ts): rule ID and text, checked, expected, got and the
 * exchange, without assertion-library phrasing or stack frames; a walk reads replay command
 * first, then steps; and Allure's own status rule calls a failure "failed" and a could-not-judge
 * "broken" (allure-js-commons getStatusFromError, as allure-vitest applies it).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStatusFromError } from 'allure-js-commons/sdk';
import { describe, expect, it } from 'vitest';
import { seededFaker } from '../generators/seed.js';
import { Check, catalogueOf } from '../harness/check.js';
import { assertionDetail, explainFailure } from '../harness/failure.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { failureReportMarkdown } from '../report/markdown-failures.js';
import { CHANGE_NOT_NOTIFIED, changeNotNotified } from '../specs/clauses/notifications.js';
import { localClient } from './support/local-client.js';
import type { Exchange } from '../harness/reply.js';
import { ConformanceFailure, CouldNotJudge, type Failure } from '../harness/verdict.js';
import { requirementIndex } from '../specs/services.js';

const rules = requirementIndex();
const thrown = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('did not throw');
};
const exchange = (operation: string, status: number, success: boolean): Exchange => ({
  service: 'organization',
  operation,
  method: 'POST',
  url: `http://127.0.0.1:9/provider-link-ws/svc/${operation}`,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 7,
  request: { headers: {}, body: { content: { source: { name: 'cf_test_a', id: 'x' } } } },
  reply: { status, headers: {}, body: { success } },
});
/** What vitest hands the reporters from a worker: own enumerable members plus name, message and stack. */
const serialized = (e: Error) => ({
  ...JSON.parse(JSON.stringify(e)),
  name: e.name,
  message: e.message,
  stack: e.stack,
});

describe('assertion errors', () => {
  it('keep what was checked, the expected and the actual value, and drop the library phrasing', () => {
    const d = assertionDetail(thrown(() => expect('t-1', 'trackingId echoed').toBe('server-made')));
    expect(d).toEqual({ what: 'trackingId echoed', expected: '"server-made"', got: '"t-1"' });
    const deep = assertionDetail(thrown(() => expect(['a', 'b'], 'values lost after the restore').toEqual([])));
    expect(deep).toEqual({ what: 'values lost after the restore', expected: '[]', got: '["a","b"]' });
  });

  it('write a comparison as the relation it asks for', () => {
    expect(assertionDetail(thrown(() => expect(3, 'results').toBeGreaterThan(5)))).toEqual({
      what: 'results',
      expected: '> 5',
      got: '3',
    });
    expect(assertionDetail(thrown(() => expect(9, 'results').toBeLessThanOrEqual(5)))).toEqual({
      what: 'results',
      expected: '<= 5',
      got: '9',
    });
  });
});

describe('a failed check', () => {
  const exchanges = [
    exchange('postIdentity', 200, true),
    exchange('mergeIdentities', 200, true),
    exchange('nativeIdQuery', 200, true),
  ];

  it('reads as rule, checked, expected, got and exchange, with no frames and no "Object.is"', () => {
    const assertion = thrown(() => expect(3, 'results of the retired source').toBe(1));
    const inRule = new ConformanceFailure(['ORG-MERGE-EFFECT'], assertion.message, {
      ...assertionDetail(assertion),
      exchange: 3,
    });
    const { error, report } = explainFailure(inRule, { verifies: ['ORG-MERGE-EFFECT'], rules, exchanges });
    const text = (error as Error).message;
    expect(text.split('\n')).toEqual([
      `ORG-MERGE-EFFECT (MUST): ${rules.get('ORG-MERGE-EFFECT')!.text}`,
      '  checked:  results of the retired source',
      '  expected: 1',
      '  got:      3',
      '  exchange: 3 of 3: nativeIdQuery -> HTTP 200, success=true in 7 ms',
    ]);
    expect((error as Error).stack).not.toMatch(/\n\s+at |harness\/|Object\.is/);
    expect(report).toMatchObject({
      requirements: ['ORG-MERGE-EFFECT'],
      expected: '1',
      got: '3',
      exchange: { number: 3, of: 3, operation: 'nativeIdQuery' },
    });
  });

  it('says in words what a yes-or-no assertion expected, never a bare "expected true / got false"', () => {
    const yes = (value: boolean, message: string, want: boolean) =>
      assertionDetail(thrown(() => expect(value, message).toBe(want)));
    expect(
      yes(
        false,
        'unmergeIdentities accepts a valid request: HTTP 409, success=false (unmergeSource is not retired into unmergeFromSource)',
        true,
      ),
    ).toEqual({
      what: '',
      expected: 'unmergeIdentities accepts a valid request',
      got: 'not so: HTTP 409, success=false (unmergeSource is not retired into unmergeFromSource)',
    });
    expect(yes(true, 'mergeIdentities answers at its documented path (HTTP 404, success=false)', false)).toEqual({
      what: '',
      expected: 'mergeIdentities answers at its documented path',
      got: 'not so: HTTP 404, success=false',
    });
    expect(yes(false, 'maxSearchResults=0 must be rejected, got HTTP 200, success=true', true)).toEqual({
      what: '',
      expected: 'maxSearchResults=0 must be rejected',
      got: 'not so: HTTP 200, success=true',
    });
    expect(yes(false, 'deleted relationship no longer found', true)).toEqual({
      what: '',
      expected: 'deleted relationship no longer found',
      got: 'not so',
    });
    // With no message at all, the rule the assertion judged is what was expected.
    const bare = explainFailure(
      thrown(() => expect(false).toBe(true)),
      { verifies: ['ORG-ENV-ECHO'], rules, exchanges },
    ).report!;
    expect(bare).toMatchObject({
      expected: rules.get('ORG-ENV-ECHO')!.text,
      got: 'not so (the assertion gives no detail)',
    });
  });

  it('reads words without detail as what the deployment did ("got"), and never repeats its own message as "checked"', () => {
    const words = explainFailure(new ConformanceFailure(['ORG-ENV-ECHO'], 'trackingId was replaced by the server'), {
      verifies: ['ORG-ENV-ECHO'],
      rules,
      exchanges,
    }).report!;
    expect(words).toMatchObject({ what: '', got: 'trackingId was replaced by the server' });
    const gotOnly = explainFailure(
      new ConformanceFailure(['ORG-MERGE-EFFECT'], 'a walk broke the identity model', {
        got: 'A resolves to L2',
        replay: 'x',
      }),
      { verifies: ['ORG-MERGE-EFFECT'], rules, exchanges },
    );
    expect(gotOnly.report).toMatchObject({ what: '', got: 'A resolves to L2' });
    expect((gotOnly.error as Error).message).not.toContain('a walk broke the identity model');
  });

  it('turns a bare assertion error into a failure of the requirements the check verifies', () => {
    const { error, report } = explainFailure(
      thrown(() => expect(1).toBe(2)),
      { verifies: ['ORG-ENV-ECHO'], rules, exchanges },
    );
    expect(error).toBeInstanceOf(ConformanceFailure);
    expect((report as Failure).requirements).toEqual(['ORG-ENV-ECHO']);
    expect((error as Error).message).toMatch(/^ORG-ENV-ECHO \(MUST\): /);
  });

  it('of a walk reads replay command, then the numbered steps, then the finding and the step exchanges', () => {
    const walk = new ConformanceFailure(['ORG-MERGE-EFFECT'], 'a walk broke the identity model', {
      what: 'partition after the step equals the model',
      expected: '[["A","B"]]',
      got: '[["A"],["B"]]',
      replay: "CONFORMANCE_SEED=7 npm run conformance -- scenarios/organization/walks.test.ts -t 'walks'",
      steps: ['(walk seed 3)', '  start: 2 new, distinct identities posted (A, B)', '  1. merge B into A'],
      stepExchanges: [2, 3],
    });
    const text = (explainFailure(walk, { verifies: ['ORG-MERGE-EFFECT'], rules, exchanges }).error as Error).message;
    const at = (s: string) => text.indexOf(s);
    expect(at('  replay:   CONFORMANCE_SEED=7')).toBeGreaterThan(0);
    expect(at('  replay:')).toBeLessThan(at('    1. merge B into A'));
    expect(at('    1. merge B into A')).toBeLessThan(at('  checked:'));
    expect(at('  got:')).toBeLessThan(at('exchanges of the failing step (2-3 of 3)'));
    expect(text).toContain('    mergeIdentities {"source":{"name":"cf_test_a","id":"x"}}');
    expect(text).not.toContain('    postIdentity');
  });
});

describe('Allure status', () => {
  it('is "failed" for a conformance failure and "broken" for could-not-judge, as the worker serializes them', () => {
    const { error } = explainFailure(new ConformanceFailure(['ORG-ENV-ECHO'], 'trackingId not echoed'), {
      verifies: ['ORG-ENV-ECHO'],
      rules,
      exchanges: [],
    });
    expect(getStatusFromError(serialized(error as Error))).toBe('failed');
    const { error: cnj } = explainFailure(
      new CouldNotJudge('postIdentity: the deployment could not answer (no reply)'),
      {
        verifies: ['ORG-ENV-ECHO'],
        rules,
        exchanges: [],
      },
    );
    expect(getStatusFromError(serialized(cnj as Error))).toBe('broken');
    expect((cnj as Error).stack).toBe('CouldNotJudge: postIdentity: the deployment could not answer (no reply)');
    // Without the change, a conformance failure is an error like any other: broken.
    expect(getStatusFromError(serialized(new ConformanceFailure(['ORG-ENV-ECHO'], 'x')))).toBe('broken');
  });
});

describe('a failure found by clauses', () => {
  it('names each clause, the requirement it cites, the sentence that forbids what it rejects, and what was observed', () => {
    const forbids = {
      file: 'organization-identity-api.md' as const,
      section: 'States and transitions',
      quote: 'all information of the source is removed',
    };
    const e = new ConformanceFailure(['ORG-HARDDELETE-EFFECT'], 'after it succeeded the deployment differs', {
      findings: [
        {
          clause: 'DELETED-SOURCE-DATA-SHOWN',
          rejects: 'a reply that shows values of a hard-deleted source',
          requirement: 'ORG-HARDDELETE-EFFECT',
          forbids,
          observed: 'identityIdQuery(L2) shows "Acme Corp" of deleted B',
        },
        {
          clause: 'DELETED-SOURCE-DATA-SHOWN',
          rejects: 'a reply that shows values of a hard-deleted source',
          requirement: 'ORG-HARDDELETE-EFFECT',
          forbids,
          observed: 'nativeIdQuery(A) shows "Acme Corp" of deleted B',
        },
        {
          clause: 'FAR-APART-JOINED',
          rejects: 'two identities generated far apart sharing a link ID',
          requirement: 'ORG-WALK-APART',
          observed: 'A and C share L1',
        },
      ],
    });
    const { report } = explainFailure(e, { verifies: ['ORG-HARDDELETE-EFFECT'], rules, exchanges: [] });
    const text = (e as Error).message;
    expect(report?.findings).toHaveLength(3);
    expect(text).toContain(
      'clause DELETED-SOURCE-DATA-SHOWN (ORG-HARDDELETE-EFFECT) rejects a reply that shows values of a hard-deleted source',
    );
    expect(text).toContain(
      'forbidden by organization-identity-api.md, States and transitions: "all information of the source is removed"',
    );
    expect(text).toContain('observed: identityIdQuery(L2) shows "Acme Corp" of deleted B');
    expect(text).toContain('observed: nativeIdQuery(A) shows "Acme Corp" of deleted B');
    expect(text.match(/clause DELETED-SOURCE-DATA-SHOWN/g)).toHaveLength(1);
    expect(text).toContain('clause FAR-APART-JOINED (ORG-WALK-APART)');
    expect(text).toContain('an EXPECT requirement: no seed sentence');
  });
});

describe('a failure found by clauses, in the reports that print checked, expected and got', () => {
  it('reads as sentences (CHANGE-NOT-NOTIFIED: no "expected: none" beside counts without a verb)', async () => {
    const profile = resolveProfile(loadProfile(undefined), false);
    const run = new RunContext(`wording-${Date.now().toString(36)}`, mkdtempSync(join(tmpdir(), 'cf-wording-')));
    const client = localClient('http://127.0.0.1:9', profile, run, { timeoutMs: 1000, maxInFlight: 1 });
    const verifies = ['ORG-NOTIF-RECORDS-CHANGES'];
    const t = new Check('organization', verifies, seededFaker(7), client, profile, run);
    const thrown = (() => {
      try {
        t.judge(CHANGE_NOT_NOTIFIED, verifies, changeNotNotified('the merge', ['n1', 'L1'], 2, 2));
      } catch (e) {
        return e;
      }
    })();
    await client.close();
    const { report } = explainFailure(thrown, { verifies, rules: catalogueOf('organization'), exchanges: [] });
    expect(failureReportMarkdown(report!)).toEqual([
      `- checked: whether there is ${CHANGE_NOT_NOTIFIED.rejects}`,
      '- expected: `none: the seeds forbid it (CHANGE-NOT-NOTIFIED)`',
      '- got: `after the merge no new notification names n1 or L1 (2 named them before it, 2 after it)`',
    ]);
  });
});
