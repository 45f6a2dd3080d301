/**
 * Global setup of one detection project (a bundle of faults, one fault, or "clean"; see
 * ProjectPlan in detection.ts): starts its own embedded reference with those faults switched on and provides the RunInfo the
 * check harness injects, exactly as harness/global-setup.ts does for an embedded run (without
 * reports and cleanup: the reference's memory goes away with it).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { ServiceName } from '../../specs/common/model.js';
import { serviceNames } from '../../specs/services.js';
import type { ServiceTarget } from '../../harness/config.js';
import { referenceTarget } from '../../harness/deployments.js';
import { loadProfile, resolveProfile } from '../../harness/profile.js';
import type { RunInfo } from '../../harness/targets.js';
import { startReference } from '../server.js';
import { REFERENCE_SERVICES } from '../services.js';


export default async function setup(project: TestProject) {
  const fault = project.name;
  // The plan names the project's faults (a bundle of at most one per service) and the requirements whose checks it runs.
  const plan = JSON.parse(readFileSync(join(process.env.DETECTION_DIR!, 'plan.json'), 'utf8')) as Array<{ name: string; faults?: string[]; only?: string[] }>;
  const entry = plan.find((p) => p.name === fault);
  const reference = await startReference({ faults: entry?.faults ?? (fault === 'clean' ? [] : [fault]) });
  const profile = resolveProfile(loadProfile(undefined), true);
  const targets: Partial<Record<ServiceName, ServiceTarget | null>> = {};
  for (const name of serviceNames()) targets[name] = REFERENCE_SERVICES[name] ? referenceTarget(reference, name, profile) : null;
  const reportDir = process.env.DETECTION_DIR!;
  const runId = `d-${fault}`.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 40);
  mkdirSync(reportDir, { recursive: true });
  const only = entry?.only;
  const info: RunInfo = { runId, reportDir, seed: 12345, timeoutMs: 30000, maxInFlightPerWorker: 4, targets, profile, embedded: true, ...(only ? { only } : {}) };
  project.provide('conformance', info);
  return () => reference.stop();
}
