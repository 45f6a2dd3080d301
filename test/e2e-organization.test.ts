/**
 * End to end: the organization scenarios against a separately started reference (configured
 * through ORG_* settings, exactly as a user points the suite at a deployment): zero failures,
 * every organization MUST requirement covered by a check or listed as untestable, every check
 * citing catalogue requirements, other services reported "not configured", and zero records of
 * the test sources left in the reference after teardown, every transition of the state diagram coloured. Also the
 * exit code 2 path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.js';
import { SERVICES, requirementIndex } from '../specs/services.js';
import { transitionViews } from '../report/state-diagram.js';
import { REFERENCE_SOURCES } from '../run/deployments.js';
import { type SuiteRun, runSuite } from './support/run-suite.js';

let ref: RunningReference;
let run: SuiteRun;

beforeAll(async () => {
  ref = await startReference();
  run = await runSuite(['scenarios/organization'], {
    ORG_BASE_URL: ref.url,
    ORG_TOKEN: ref.token,
    ORG_SOURCES: REFERENCE_SOURCES.join(','),
  });
}, 240000);
afterAll(() => ref?.stop());

describe('organization conformance run against a configured reference', () => {
  it('passes with zero failures and errors, and exits 0', () => {
    const failing = run.summary?.checks
      .filter((c) => c.verdict === 'fail' || c.verdict === 'error')
      .map((c) => `${c.title}: ${c.message ?? c.note}`);
    expect(failing, run.stderr.slice(-2000)).toEqual([]);
    expect(run.summary!.totals.checks).toBeGreaterThan(50);
    expect(run.code).toBe(0);
  });

  it('covers every organization MUST requirement with a check, or lists it as untestable with a reason', () => {
    const uncovered = run
      .summary!.requirements.filter(
        (r) => r.service === 'organization' && r.level === 'MUST' && r.outcome === 'uncovered',
      )
      .map((r) => r.id);
    expect(uncovered).toEqual([]);
    for (const r of run.summary!.requirements.filter((x) => x.outcome === 'untestable'))
      expect(r.untestable?.length).toBeGreaterThan(10);
  });

  it('exercises every organization operation', () => {
    expect(
      run.summary!.operations.filter((o) => o.service === 'organization' && !o.exercised).map((o) => o.operation),
    ).toEqual([]);
  });

  it('colours every transition of the state diagram: each is exercised by a passing check that sent it, none is grey', () => {
    const org = SERVICES.organization;
    const views = transitionViews(org.states, org.requirements, run.summary!.checks);
    expect(views.map((v) => `${v.transition.operation}: ${v.verdict}`)).toEqual(
      org.states.transitions.map((t) => `${t.operation}: pass`),
    );
    // The reply and effect checks of a row share one run of its script: each carries the operations that run sent.
    const shared = run.summary!.checks.filter((c) => c.area === 'lifecycle' || c.area === 'merge-link');
    expect(shared.filter((c) => c.verdict === 'pass' && !c.operations.length).map((c) => c.checkId)).toEqual([]);
  });

  it('every check has its own check ID (IDs key seeds, baselines and known-failure lists)', () => {
    const ids = run.summary!.checks.map((c) => c.checkId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('every check cites at least one requirement, and every cited ID is in the catalogue', () => {
    const index = requirementIndex();
    for (const c of run.summary!.checks) {
      expect(c.verifies.length, c.title).toBeGreaterThan(0);
      for (const id of c.verifies) expect(index.has(id), `${c.title} cites ${id}`).toBe(true);
    }
  });

  it('reports services without a URL as "not configured", never as passed', () => {
    for (const t of run.summary!.run.targets.filter((x) => x.service !== 'organization')) {
      expect(t.status).toBe('not configured');
      expect(run.summary!.checks.filter((c) => c.service === t.service && c.verdict === 'pass')).toEqual([]);
    }
  });

  it('leaves zero records of the test sources in the reference after teardown, and the ledger lists what was created', () => {
    const left = [...ref.stores.get('organization')!.records.values()].filter((r) =>
      REFERENCE_SOURCES.includes(r.source.name),
    );
    expect(left.map((r) => r.key)).toEqual([]);
    expect(run.summary!.cleanup!.sources.attempted).toBeGreaterThan(20);
    expect(run.summary!.cleanup!.failures).toEqual([]);
    expect(ref.stores.get('organization')!.relationships.size).toBe(0);
  });

  it('prints a short console summary with target, checks and the report folder', () => {
    expect(run.stdout).toMatch(
      /organization \(configured http:\/\/127\.0\.0\.1:\d+\/provider-link-ws\/svc\): \d+ checks, \d+ passed, 0 failed/,
    );
    expect(run.stdout).toContain('report:');
  });
});

describe('bad settings', () => {
  it('stop the run before any request with one message naming the setting, exit code 2', async () => {
    const r = await runSuite(
      ['scenarios/organization'],
      { ORG_BASE_URL: 'ftp://example', ORG_TOKEN: 'a.b.c', ORG_SOURCES: 'x' },
      60000,
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^conformance: Setting ORG_BASE_URL: expected an http or https URL/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.summary).toBeUndefined();
  });
});
