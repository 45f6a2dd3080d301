/**
 * A service's walk checks in a run's summary (scenarios/shared/walk/walk.ts walkChecks registers the tours and the
 * planned walks in parts, each a check of its own): the first that failed, or the first of them.
 */
import type { runSuite } from './run-suite.js';

type Run = Awaited<ReturnType<typeof runSuite>>;

/** The first failing walk check of `service`, or its first walk check when none failed. */
export const walkCheck = (run: Run, service: string) => {
  const checks = run.summary?.checks.filter((c) => c.area === 'walks' && c.service === service) ?? [];
  return checks.find((c) => c.verdict !== 'pass') ?? checks[0];
};
