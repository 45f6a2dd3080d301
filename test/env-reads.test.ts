/**
 * Settings are read once, by their owner: the suite's by harness/config.ts, the embedded
 * reference's by reference/settings.ts (through reference/server.ts), the match-quality
 * benchmark's by its command. The values the processes of one run hand to each other are
 * declared, read and written in harness/handoff.ts (test/handoffs.test.ts). Every other use of
 * the environment passes it on: to a child process, into the process's own environment for the
 * modules that read it later, or as a default argument of a reader its owner validated first.
 * A new read anywhere else fails this test: pass the value down from the owner, or declare a
 * hand-off, instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Every file allowed to use `process.env`, with why. */
const READERS: Record<string, string> = {
  // The owners.
  'harness/config.ts': "the owner of the suite's settings (CONFORMANCE_*, ORG_*, PERSON_*, PROVIDER_*)",
  'reference/server.ts':
    "hands the environment to reference/settings.ts, the owner of the reference's settings (REFERENCE_*)",
  'linkage/cli.ts': "the owner of the match-quality benchmark's settings (MATCH_QUALITY_*)",
  'harness/handoff.ts': 'the owner of the hand-offs between processes: their readers default to the environment',
  // Hand-offs written into the process's own environment (declared in harness/handoff.ts).
  'run/cli/conformance-prepare.ts':
    "step 1 of the command: --verbose for its own settings (HANDOFF.verbose), the reference's settings checked, and vitest's environment defaults",
  'run/run-settings.ts':
    "the run ID handed on in the process (HANDOFF.runId), and the reference's settings for the variants' profile",
  'run/vitest/global-setup.ts': 'the run folder for the reporters of the same vitest process (HANDOFF.runFolder)',
  // The environment passed on to a child.
  'run/cli/conformance.mjs': 'the command hands its environment and the prepared settings to the vitest process',
  'run/cli/conformance-finish.ts':
    "step 3 of the command: the run's environment with the plan's variables, for the settings the evidence bundle records and the check catalogue's listing",
  'run/cli/reference.ts': 'npm run reference starts the reference with the environment it was given',
  'run/cli/report-allure.ts': 'the environment of its child (allure generate)',
  'report/merge.ts':
    'the merge step hands its environment, with the run folder and run ID, to the vitest process that replays the shards',
  'detection/runner.ts': 'hands its environment, without the user settings, to the vitest process of a detection run',
  'detection/mutation/conformance-run.ts':
    'hands its environment, without the user settings and with the mutant to switch on, to each conformance run of a mutation measure',
  'linkage/data/zip-places.ts':
    "reads the ZIP code table in a short-lived child process, with the parent's environment less NODE_OPTIONS (the benchmark's heap flags)",
  'bench/latency.ts': 'a benchmark: starts the reference and a run as children with its settings',
  'bench/conformance-run.ts': 'a benchmark: starts runs as children',
  // Default arguments of readers whose owner validated the settings first.
  'run/deployments.ts': "checks the reference's settings before anything starts (default argument)",
  'report/progress.ts': 'whether the console takes live updates (CI, NO_COLOR, TERM; default argument)',
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

  it('happen only in the owners of settings and hand-offs, and where the environment is passed on', () => {
    expect(readers.filter((f) => !(f in READERS))).toEqual([]);
  });

  it('the list names no file that no longer reads it (so it stays the list of readers)', () => {
    expect(Object.keys(READERS).filter((f) => !readers.includes(f))).toEqual([]);
  });
});
