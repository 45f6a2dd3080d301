/**
 * The suite's checks can be listed and selected by requirement (run/check-selection.ts,
 * `npm run conformance -- --list [--json]`, `--requirement ID[,ID]`): the listing names every
 * check once with its service, area, requirements and file, and a requirement selects exactly the
 * checks whose test name carries its ID (never a longer ID that begins with it).
 */
import { describe, expect, it } from 'vitest';
import { resolveBudgets } from '../harness/config.js';
import { suiteChecks } from '../run/check-ids.js';
import { listingText, requirementFilters } from '../run/check-selection.js';
import { requirementIndex } from '../specs/services.js';
import { runCommand } from './support/command.js';

const CLI = 'run/cli/conformance.mjs';
const checks = await suiteChecks(resolveBudgets({ walks: 0, walkSteps: 0, badInputs: 0 }, true));
const pattern = (ids: string[]) => {
  const f = requirementFilters(ids, checks);
  if ('problem' in f) throw new Error(f.problem);
  return new RegExp(f.args[f.args.indexOf('-t') + 1]!);
};

describe('--requirement', () => {
  it('selects the test names that carry one of the IDs, alone or among others, and no longer ID', () => {
    const re = pattern(['ORG-SEARCH-THRESHOLD', 'ORG-MERGE-EFFECT']);
    expect(re.test('demographicsSearch returns nothing below matchScoreThreshold [ORG-SEARCH-THRESHOLD]')).toBe(true);
    expect(re.test('walks [ORG-HARDDELETE-EFFECT ORG-MERGE-EFFECT ORG-MERGE-REPLY]')).toBe(true);
    expect(re.test('raising matchScoreThreshold returns a subset [ORG-SEARCH-THRESHOLD-MONOTONE]')).toBe(false);
    expect(re.test('merge replies [ORG-MERGE-REPLY]')).toBe(false);
  });

  it('runs the scenario files of the checks the listing says verify them, and no other', () => {
    const f = requirementFilters(['PERSON-DEACTIVATE-EXCLUDES-MATCHING', 'ORG-MERGE-EFFECT'], checks);
    const files = 'args' in f ? f.args.filter((a) => a.startsWith('scenarios/')) : [];
    const verifying = checks.filter((c) =>
      c.verifies.some((v) => ['PERSON-DEACTIVATE-EXCLUDES-MATCHING', 'ORG-MERGE-EFFECT'].includes(v)),
    );
    expect(files.sort()).toEqual([...new Set(verifying.map((c) => c.file))].sort());
    expect(files).toContain('scenarios/person/lifecycle.test.ts');
    expect(files).not.toContain('scenarios/organization/search.test.ts');
  });

  it('refuses a requirement no check verifies', () => {
    expect(requirementFilters(['ORG-MERGE-EFFECT'], [])).toEqual({
      problem: '--requirement: no check verifies ORG-MERGE-EFFECT (its requirements are untestable)',
    });
  });

  it('refuses an ID the catalogue does not hold, naming the one meant', () => {
    expect(requirementFilters(['ORG-MERGE-EFECT'], checks)).toEqual({
      problem: '--requirement: ORG-MERGE-EFECT is no requirement of the catalogue (did you mean ORG-MERGE-EFFECT?)',
    });
  });

  it('stops the command with exit code 2 before anything runs', async () => {
    const r = await runCommand(CLI, ['--requirement', 'ORG-MERGE-EFECT']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('did you mean ORG-MERGE-EFFECT?');
  });
});

describe('--list', () => {
  it('lists every check once with its service, area, requirements and file, as JSON', async () => {
    const r = await runCommand(CLI, ['--list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const checks = JSON.parse(r.stdout) as Array<{
      checkId: string;
      service: string;
      area: string;
      requirements: string[];
      file: string;
    }>;
    expect(checks.length).toBeGreaterThan(250);
    expect(new Set(checks.map((c) => c.checkId)).size).toBe(checks.length);
    const index = requirementIndex();
    for (const c of checks) {
      expect(c.checkId.startsWith(`${c.service}/${c.area}/`), c.checkId).toBe(true);
      expect(c.file).toMatch(new RegExp(`^scenarios/${c.service}/.+\\.test\\.ts$`));
      expect(c.requirements.length, c.checkId).toBeGreaterThan(0);
      for (const id of c.requirements) expect(index.get(id)?.service, `${c.checkId}: ${id}`).toBe(c.service);
    }
    // The text form says the same, one line per check and a count.
    const text = listingText(checks.map((c) => ({ ...c, verifies: c.requirements, title: '' })));
    expect(text.split('\n')).toHaveLength(checks.length + 1);
  });

  it('--json goes with --list only', async () => {
    const r = await runCommand(CLI, ['--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--json goes with --list');
  });
});
