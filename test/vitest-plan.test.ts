/**
 * The conformance run's vitest configuration takes the run's plan from the command
 * (run/vitest-plan.ts) instead of importing the settings: vitest hashes the content of every file
 * the configuration imports for every module a run loads. Here: what the configuration reaches by
 * its imports, and how a handed plan is read (HANDOFF.vitestPlan).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDOFF } from '../harness/handoff.js';
import { isolationGroups } from '../run/vitest-plan.js';
import { reachable } from './support/import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');

describe('the vitest configuration of a conformance run', () => {
  it('reaches none of the settings, specs or reference modules by its imports, and little code at all', () => {
    // Files of the project only: packages and Node's built-in modules (listed by bare name) left out.
    const project = [...reachable(['vitest.config.ts'])].filter(
      (m) => /\.(ts|mjs|js)$/.test(m) && !m.startsWith('node_modules/'),
    );
    // The hand-off module declares the plan and imports nothing; every other module of those folders stays out.
    const suite = project.filter((m) => /^(harness|specs|reference|scenarios|generators|report)\//.test(m));
    expect(suite.filter((m) => m !== 'harness/handoff.ts')).toEqual([]);
    // Before the hand-off: 70 files, 480 KB, hashed again for each of the run's modules.
    const bytes = project.reduce((n, m) => n + readFileSync(resolve(ROOT, m)).length, 0);
    expect(project.length).toBeLessThanOrEqual(8);
    expect(bytes).toBeLessThan(20_000);
  }, 120000);
});

describe('HANDOFF.vitestPlan', () => {
  const plan = {
    runId: 'r1',
    reportDir: 'reports',
    requirementUrl: '../report.html#req-%s',
    timeoutMs: 30000,
    filesAtOnce: 4,
    isolationGroups: { organization: 'organization', provider: 'organization', person: 'person' },
  };

  it('is undefined when no plan is handed over (vitest started directly)', () => {
    expect(HANDOFF.vitestPlan.read({})).toBeUndefined();
  });

  it('reads the plan the command handed over', () => {
    expect(HANDOFF.vitestPlan.read(HANDOFF.vitestPlan.entry(plan))).toEqual(plan);
  });

  it('refuses a value that is not such a plan, naming the variable', () => {
    const bad = [
      '{',
      '[]',
      { ...plan, filesAtOnce: 0 },
      { ...plan, runId: 3 },
      { ...plan, isolationGroups: { person: 1 } },
    ];
    for (const value of bad.map((b) => (typeof b === 'string' ? b : JSON.stringify(b))))
      expect(() => HANDOFF.vitestPlan.read({ [HANDOFF.vitestPlan.name]: value })).toThrow(HANDOFF.vitestPlan.name);
  });
});

describe('isolationGroups', () => {
  it('puts services reached at one service URL in one group, and every other service in its own', () => {
    expect(
      isolationGroups({
        organization: 'https://idm.example.com/provider-link-ws/svc',
        person: 'https://idm.example.com/link-ws/svc',
        provider: 'https://IDM.example.com/provider-link-ws/svc/',
      }),
    ).toEqual({ organization: 'organization', person: 'person', provider: 'organization' });
    expect(
      isolationGroups({
        organization: 'https://a.example.com/provider-link-ws/svc',
        provider: 'https://b.example.com/provider-link-ws/svc',
      }),
    ).toEqual({
      organization: 'organization',
      provider: 'provider',
    });
  });
});
