/**
 * A small fabricated run folder for report self-tests: one passing check, one failing a MUST
 * requirement (with a hostile title to prove escaping), one failing an EXPECT requirement only,
 * one error, one skip; exchanges with a search reply carrying match scores.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { assertionDetail, explainFailure } from '../../harness/failure.js';
import type { Exchange } from '../../harness/reply.js';
import { ConformanceFailure, type Failure } from '../../harness/verdict.js';
import { requirementIndex } from '../../specs/services.js';
import type { CheckResult } from '../../report/results.js';
import type { RunDescription } from '../../report/summary.js';

export const HOSTILE_TITLE = 'echoes <script>alert("x")</script> & trackingId';

const exchange = (operation: string, durationMs: number, body: unknown, status = 200): Exchange => ({
  service: 'organization',
  operation,
  method: 'POST',
  url: `http://127.0.0.1:9/provider-link-ws/svc/${operation}`,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs,
  request: {
    headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
    body: { trackingId: 't-1', auditId: "a'1", content: { maxSearchResults: 3 } },
  },
  reply: { status, headers: { 'content-type': 'application/json' }, body },
});

const check = (
  id: string,
  verdict: CheckResult['verdict'],
  verifies: string[],
  extra: Partial<CheckResult> = {},
): CheckResult => ({
  checkId: `organization/envelope/${id}`,
  title: `${id} [${verifies.join(' ')}]`,
  file: 'scenarios/organization/envelope.test.ts',
  service: 'organization',
  area: 'envelope',
  verifies,
  verdict,
  failedRequirements: [],
  durationMs: 10,
  operations: ['demographicsSearch'],
  ...extra,
});

/** A failure as a check leaves it: a real assertion inside a rule, explained by the harness (harness/failure.ts). */
function failed(ids: string[], assertion: () => void, exchanges: Exchange[]): { message: string; failure: Failure } {
  try {
    assertion();
  } catch (e) {
    const inRule = new ConformanceFailure(ids, (e as Error).message, {
      ...assertionDetail(e as Error),
      exchange: exchanges.length,
    });
    const { error, report } = explainFailure(inRule, { verifies: ids, rules: requirementIndex(), exchanges });
    return { message: (error as Error).message, failure: report! };
  }
  throw new Error('the fixture assertion held');
}

export function makeRunFolder(): { folder: string; reportDir: string; run: RunDescription; results: CheckResult[] } {
  const reportDir = mkdtempSync(join(tmpdir(), 'cf-report-'));
  const folder = join(reportDir, 'fixture-run');
  mkdirSync(join(folder, 'exchanges'), { recursive: true });
  const search = exchange('demographicsSearch', 40, {
    success: true,
    trackingId: 't-1',
    content: { searchResults: [0.95, 0.91, 0.42, 0.35, 0.31].map((matchScore) => ({ matchScore, sameIdentity: 'U' })) },
  });
  const failing = exchange('demographicsSearch', 120, {
    success: true,
    trackingId: 'server-made',
    content: { searchResults: [{ matchScore: 0.33, sameIdentity: 'N' }] },
  });
  writeFileSync(join(folder, 'exchanges', 'organization__envelope__passing.json'), JSON.stringify([search]));
  writeFileSync(join(folder, 'exchanges', 'organization__envelope__echo.json'), JSON.stringify([search, failing]));
  const results: CheckResult[] = [
    check('passing', 'pass', ['ORG-VIEWS-DEFAULT'], {
      exchangesFile: 'exchanges/organization__envelope__passing.json',
    }),
    check('echo', 'fail', ['ORG-ENV-ECHO'], {
      title: HOSTILE_TITLE,
      failedRequirements: ['ORG-ENV-ECHO'],
      ...failed(['ORG-ENV-ECHO'], () => expect('server-made', 'trackingId echoed').toBe('t-1'), [search, failing]),
      exchangesFile: 'exchanges/organization__envelope__echo.json',
    }),
    check('retryable', 'fail', ['ORG-ERR-NOT-RETRYABLE'], {
      failedRequirements: ['ORG-ERR-NOT-RETRYABLE'],
      message: 'retryableError was true',
    }),
    check('unreachable', 'error', ['ORG-ERR-CARRIED'], { note: 'demographicsSearch: connect ECONNREFUSED' }),
    check('skipped', 'skip', ['ORG-BADINPUT-REJECTED'], { note: 'could not create the precondition' }),
  ];
  const run: RunDescription = {
    runId: 'fixture-run',
    seed: 4242,
    startedAt: '2026-01-01T00:00:00.000Z',
    embedded: false,
    targets: [
      {
        service: 'organization',
        status: 'configured',
        baseUrl: 'https://svc-user:hunter2-secret@staging.example.com',
        servicePath: '/provider-link-ws/svc',
        auth: 'bearer',
        sources: ['cf_test_a'],
      },
      { service: 'person', status: 'not configured' },
    ],
    profile: { consistencyBudgetMs: 0, token: 'should-not-appear' },
  };
  return { folder, reportDir, run, results };
}

/** One organization check result of area `<area>/...` (the ID's first segment), as the reporter writes it. */
export const resultOf = (
  id: string,
  verdict: CheckResult['verdict'],
  verifies: string[],
  failedRequirements: string[] = [],
  extra: Partial<CheckResult> = {},
): CheckResult => ({
  checkId: `organization/${id}`,
  title: id,
  file: `scenarios/organization/${id.split('/')[0]}.test.ts`,
  service: 'organization',
  area: id.split('/')[0]!,
  verifies,
  verdict,
  failedRequirements,
  durationMs: 1,
  operations: [],
  ...extra,
});
