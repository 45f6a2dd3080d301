/**
 * Settings are read once, by their owner: the suite's by harness/config.ts, the embedded
 * reference's by reference/settings.ts (through reference/server.ts), the match-quality
 * benchmark's by its command. Every other read of the environment is a documented hand-off
 * between the processes of one run (a command to its child, the global setup to the reporter, the
 * detection runner to its vitest process) or a benchmark starting a child. A new read anywhere
 * else fails this test: pass the value down from the owner instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Every file allowed to read `process.env`, with why. */
const READERS: Record<string, string> = {
  'harness/config.ts': "the owner of the suite's settings (CONFORMANCE_*, ORG_*, PERSON_*, PROVIDER_*)",
  'reference/server.ts': "hands the environment to reference/settings.ts, the owner of the reference's settings (REFERENCE_*)",
  'linkage/cli.ts': "the owner of the match-quality benchmark's settings (MATCH_QUALITY_*)",
  'run/cli/conformance.mjs': 'the command hands its environment and the prepared settings to the vitest process',
  'run/cli/conformance-prepare.ts': 'step 1 of the command: reads the settings through harness/config.ts and sets the hand-off variables',
  'run/cli/conformance-finish.ts':
    "step 3 of the command: hands the plan's variables (run ID, seed, exchanges kept) to the settings the evidence bundle records, and the run's environment to the check catalogue's listing",
  'run/run-settings.ts':
    "the run ID the command hands to vitest (CONFORMANCE_RUN_ID), and the reference's settings for the variants' profile",
  'run/vitest/vitest-plan.ts':
    "the plan the command's first step hands to the vitest configuration (CONFORMANCE_VITEST_PLAN; default argument)",
  'run/vitest/global-setup.ts':
    'hands the run folder and run ID to the reporters of the same vitest process (CONFORMANCE_ACTIVE_RUN_FOLDER)',
  'run/interrupt.ts': "the stop pipe the command hands to the run's vitest process (CONFORMANCE_STOP_FD; default argument)",
  'run/deployments.ts': "checks the reference's settings before anything starts (default argument)",
  'run/cli/reference.ts': 'npm run reference starts the reference with the environment it was given',
  'run/cli/report-merge.ts': 'the report folder default (CONFORMANCE_REPORT_DIR) of the merge command',
  'run/cli/report-allure.ts': 'the report folder default of the Allure command, and the environment of its child',
  'report/reporter.ts': 'the run folder the global setup handed over (CONFORMANCE_ACTIVE_RUN_FOLDER)',
  'run/vitest/reporters.ts': 'the shard and merge hand-offs (CONFORMANCE_SHARD, CONFORMANCE_MERGE; default argument)',
  'report/merge.ts': 'the merge step hands the run folder and run ID to the vitest process that replays the shards',
  'report/known-failures.ts': 'the known-failures file setting (default argument; harness/config.ts validates it first)',
  'report/progress.ts': 'whether the console takes live updates (CI, NO_COLOR, TERM; default argument)',
  'detection/runner.ts': 'hands the plan folder to the vitest process of a detection run (DETECTION_DIR), without the user settings',
  'detection/vitest.config.ts': 'the plan folder and workers the detection runner handed over',
  'detection/setup.ts': 'the plan folder the detection runner handed over',
  'detection/reporter.ts': 'the plan folder the detection runner handed over',
  'linkage/data/zip-places.ts':
    "reads the ZIP code table in a short-lived child process, with the parent's environment less NODE_OPTIONS (the benchmark's heap flags)",
  'bench/latency.ts': 'a benchmark: starts the reference and a run as children with its settings',
  'bench/variant-runs.ts': 'a benchmark: starts runs as children',
  'bench/conformance-run.ts': 'a benchmark: starts runs as children',
  'bench/resilience-targets.ts': 'a benchmark: starts runs as children',
};

const SKIP = new Set(['node_modules', 'test', 'reports', '.git', 'docs', 'examples']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (SKIP.has(d.name) || d.name.startsWith('.')) return [];
    const p = join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return /\.(ts|mjs|js|cjs)$/.test(d.name) ? [p] : [];
  });
}

describe('reads of the environment', () => {
  const readers = sources(ROOT)
    .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f))
    .sort();

  it('happen only in the owners of settings and the documented hand-offs between processes', () => {
    expect(readers.filter((f) => !(f in READERS))).toEqual([]);
  });

  it('the list names no file that no longer reads it (so it stays the list of readers)', () => {
    expect(Object.keys(READERS).filter((f) => !readers.includes(f))).toEqual([]);
  });
});
