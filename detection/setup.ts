/**
 * Global setup of one detection project ("clean", one fault, a bundle of faults, or variants: see ProjectPlan in
 * runner.ts): starts an embedded reference per variant with its faults or deployment variants (reference/variants)
 * switched on and provides the RunInfo the check harness injects, exactly as run/vitest/global-setup.ts does for an
 * embedded run (without reports and the final cleanup: the reference's memory goes away with it). A variant with
 * deployment variants runs under the profile their users would set (detection/variants.ts profileOf).
 *
 * The clean run and the deployment-variant runs remove a file's records once its checks have ended, as a conformance
 * run does (run/vitest/early-removal.ts), so a false red those removals might cause in another check shows as a false positive
 * or a failed variant. Fault runs do not: a fault may break deletion itself, and its run must say what the fault does
 * to the checks alone.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { ServiceName } from '../specs/common/model.js';
import { serviceNames } from '../specs/services.js';
import { DEFAULT_RETRY_BUDGET_MS, type ServiceTarget, resolveBudgets } from '../harness/config.js';
import { HANDOFF } from '../harness/handoff.js';
import { referenceTarget } from '../run/deployments.js';
import { type Profile, loadProfile, resolveProfile } from '../harness/profile.js';
import type { RunInfo } from '../harness/targets.js';
import { startReference } from '../reference/server.js';
import { REFERENCE_SERVICES } from '../reference/services.js';
import { DEFAULT_RUN_SEED, plannedVariants, profileOf } from './variants.js';
import { RunContext } from '../harness/run.js';
import { sharedCounters } from '../harness/shared-limit.js';
import { attachFileListener, detachFileListener } from '../run/vitest/file-events.js';
import { planName } from './isolated-phase.js';

type PlanVariant = { name: string; faults?: string[]; only?: string[]; variants?: string[] };
type PlanEntry = { name: string; faults?: string[]; only?: string[]; seed?: number; variants?: PlanVariant[] };
const given = new Set<string>();
/**
 * The run ID of a project or variant: unique in this process, because the check harness keys each run's clients (and so
 * its targets) by run ID (harness/targets.ts).
 */
const runIdOf = (name: string) => {
  const base = `d-${name}`.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 40);
  let id = base;
  for (let i = 2; given.has(id); i++) id = `${base}-${i}`;
  given.add(id);
  return id;
};

export default async function setup(project: TestProject) {
  // The isolated files of a plan entry run in a project of their own (detection/isolated-phase.ts).
  const fault = planName(project.name);
  // The plan names the project's faults and the requirements whose checks it runs, or its variants (bundles of at most
  // one fault per service, or of deployment variants), each with its own reference.
  const plan = JSON.parse(readFileSync(join(HANDOFF.detectionDir.need(), 'plan.json'), 'utf8')) as PlanEntry[];
  const entry = plan.find((p) => p.name === fault);
  const profile = resolveProfile(loadProfile(undefined), true);
  const references: Array<Awaited<ReturnType<typeof startReference>>> = [];
  const targetsOf = async (faults: string[], variants: string[] = [], using: Profile = profile) => {
    const reference = await startReference({ faults, variants });
    references.push(reference);
    const targets: Partial<Record<ServiceName, ServiceTarget | null>> = {};
    for (const name of serviceNames())
      targets[name] = REFERENCE_SERVICES[name] ? referenceTarget(reference, name, using) : null;
    return targets;
  };
  const targets = await targetsOf(entry?.variants ? [] : (entry?.faults ?? (fault === 'clean' ? [] : [fault])));
  const variants = entry?.variants
    ? await Promise.all(
        entry.variants.map(async (v) => {
          const own = v.variants?.length ? profileOf(plannedVariants(v.variants)) : undefined;
          return {
            name: v.name,
            runId: runIdOf(v.name),
            ...(v.only ? { only: v.only } : {}),
            ...(own ? { profile: own } : {}),
            targets: await targetsOf(v.faults ?? [], v.variants, own),
          };
        }),
      )
    : undefined;
  const reportDir = HANDOFF.detectionDir.need();
  mkdirSync(reportDir, { recursive: true });
  const only = entry?.only;
  const info: RunInfo = {
    runId: runIdOf(fault),
    reportDir,
    seed: entry?.seed ?? DEFAULT_RUN_SEED,
    timeoutMs: 30000,
    maxInFlightPerWorker: 4,
    retryBudgetMs: DEFAULT_RETRY_BUDGET_MS,
    budgets: resolveBudgets({ walks: 0, walkSteps: 0, badInputs: 0 }, true),
    targets,
    profile,
    embedded: true,
    ...(only ? { only } : {}),
    ...(variants ? { variants } : {}),
  };
  project.provide('conformance', info);
  // The clean run, and the runs against deployment variants (not those of fault bundles).
  const deploymentVariants = new Set((entry?.variants ?? []).filter((v) => v.variants?.length).map((v) => v.name));
  const removals = await earlyRemovals(
    project.name,
    fault === 'clean'
      ? [{ runId: info.runId, targets, profile }]
      : (variants ?? [])
          .filter((v) => deploymentVariants.has(v.name))
          .map((v) => ({ runId: v.runId, targets: v.targets, profile: v.profile ?? profile })),
    reportDir,
  );
  return async () => {
    try {
      await removals.finish();
    } finally {
      await Promise.all(references.map((r) => r.stop()));
    }
  };
}

/**
 * Early removal (run/vitest/early-removal.ts) for each of these runs, told of the project's file ends through one listener;
 * finish() ends them all. Each run's removals have in-flight counters of their own: the detection workers share none
 * (each bounds its own requests).
 */
async function earlyRemovals(
  project: string,
  runs: Array<{ runId: string; targets: Partial<Record<ServiceName, ServiceTarget | null>>; profile: Profile }>,
  reportDir: string,
): Promise<{ finish(): Promise<void> }> {
  if (!runs.length) return { finish: async () => {} };
  const { EarlyRemoval } = await import('../run/vitest/early-removal.js');
  const all = runs.map(
    (r) =>
      new EarlyRemoval(new RunContext(r.runId, reportDir), r.targets, r.profile, {
        timeoutMs: 30000,
        maxInFlight: 4,
        retryBudgetMs: DEFAULT_RETRY_BUDGET_MS,
        counters: sharedCounters(serviceNames().length),
      }),
  );
  attachFileListener(project, {
    selected: (files) => all.forEach((r) => r.selected(files)),
    fileEnded: (file, settled) => all.forEach((r) => r.fileEnded(file, settled)),
  });
  return {
    finish: async () => {
      await Promise.allSettled(all.map((r) => r.finish()));
      detachFileListener(project);
    },
  };
}
