/**
 * Runs one service's walk checks in this process, against a reference started here with the given faults, as `npm run
 * conformance` would for a run seed: the same check IDs and seeded Fakers, so the same plan and the same walks
 * (scenarios/<service>/walks.test.ts), without the cost of a vitest run, a report and a cleanup per seed. Used by the
 * walk self-tests to try many seeds.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Check } from '../../harness/check.js';
import { ServiceClient } from '../../harness/client.js';
import { loadProfile, resolveProfile } from '../../harness/profile.js';
import { slug } from '../../harness/register.js';
import { RunContext } from '../../harness/run.js';
import { ConformanceFailure } from '../../harness/verdict.js';
import { seededFaker, testSeed } from '../../generators/seed.js';
import { startReference } from '../../reference/server.js';
import { plannedVariants, profileOf } from '../../detection/variants.js';
import { referenceTarget } from '../../run/deployments.js';
import type { ServiceName } from '../../specs/common/model.js';
import * as organization from '../../scenarios/organization/walk-config.js';
import * as person from '../../scenarios/person/walk-config.js';
import * as provider from '../../scenarios/provider/walk-config.js';
import { type RunBudgets, resolveBudgets } from '../../harness/config.js';
import type { SituationsSeen } from '../../harness/verdict.js';
import { TOURS_TITLE, WALKS_TITLE, runPlannedPart, runTours, walkParts } from '../../scenarios/shared/walk/walk.js';
import { type WalkConfig, walkRequirementIds } from '../../scenarios/shared/walk-config.js';

const WALKS: Record<ServiceName, { config: WalkConfig; file: string }> = {
  organization: { config: organization.organizationWalks, file: organization.WALKS_FILE },
  person: { config: person.personWalks, file: person.WALKS_FILE },
  provider: { config: provider.providerWalks, file: provider.WALKS_FILE },
};

export interface WalkCheckResult {
  verdict: 'pass' | 'fail';
  /** Requirements the failure cites. */
  requirements: string[];
  message: string;
  /** The checks' notes. */
  note: string;
  /** The situations the checks reached and judged, merged (the tours' and every part's). */
  situations: { enumerated: number; reached: Set<string>; judged: Set<string>; notReached: Map<string, string> };
}

/** The embedded run's budgets (harness/config.ts resolveBudgets with no settings). */
export const EMBEDDED_BUDGETS: RunBudgets = resolveBudgets({ walks: 0, walkSteps: 0, badInputs: 0 }, true);

/**
 * @param seed the run seed (CONFORMANCE_SEED)
 * @param faults reference faults switched on (REFERENCE_FAULTS)
 * @param options `budgets` (default EMBEDDED_BUDGETS), `tours` false: the planned walks only, `planned` false: the tours
 *   only, `variants` reference variants switched on (REFERENCE_VARIANTS, the profile patched as detection does),
 *   `sendWithinMs` each check's time to send from its start (Check.sendBy; default: no limit)
 * @throws what the walks throw other than a ConformanceFailure (could not judge, a suite bug)
 */
export async function runWalkCheck(
  service: ServiceName,
  seed: number,
  faults: string[],
  options: {
    budgets?: RunBudgets;
    tours?: boolean;
    planned?: boolean;
    variants?: string[];
    sendWithinMs?: number;
  } = {},
): Promise<WalkCheckResult> {
  const { config, file } = WALKS[service];
  const budgets = options.budgets ?? EMBEDDED_BUDGETS;
  const variants = options.variants ?? [];
  const reference = await startReference({ faults, variants, foreignData: false });
  try {
    const profile = variants.length ? profileOf(plannedVariants(variants)) : resolveProfile(loadProfile(), true);
    const run = new RunContext(`walks-${seed}`, mkdtempSync(join(tmpdir(), 'cf-walks-')));
    const target = referenceTarget(reference, service, profile);
    const client = new ServiceClient(target, profile, run, { timeoutMs: 30000, maxInFlight: 8 });
    const planRun = { seed, budgets, sources: target.sources.length };
    const parts = walkParts(budgets);
    const checks: ReadonlyArray<readonly [title: string, body: (t: Check) => Promise<void>]> = [
      ...(options.tours === false ? [] : [[TOURS_TITLE, (t: Check) => runTours(t, config, file, planRun)] as const]),
      ...(options.planned === false
        ? []
        : Array.from({ length: parts }, (_, i) => {
            const title = parts > 1 ? `${WALKS_TITLE} (part ${i + 1} of ${parts})` : WALKS_TITLE;
            return [
              title,
              (t: Check) => runPlannedPart(t, config, { file, title, part: i, log: () => {} }, planRun),
            ] as const;
          })),
    ];
    const done = await Promise.all(
      checks.map(async ([title, body]) => {
        const t = new Check(
          service,
          walkRequirementIds(config),
          seededFaker(testSeed(seed, `${service}/walks/${slug(title)}`)),
          client,
          profile,
          run,
        );
        if (options.sendWithinMs !== undefined) t.sendBy = Date.now() + options.sendWithinMs;
        try {
          await body(t);
          return { t };
        } catch (e) {
          if (!(e instanceof ConformanceFailure)) throw e;
          return { t, failure: e };
        }
      }),
    );
    const failure = done.find((d) => d.failure)?.failure;
    return {
      verdict: failure ? 'fail' : 'pass',
      requirements: failure?.requirements ?? [],
      message: failure?.message ?? '',
      note: done.flatMap((d) => d.t.notes).join('\n'),
      situations: mergeSituations(done.map((d) => d.t.situations)),
    };
  } finally {
    await reference.stop();
  }
}

/** The situations of several walk checks together. */
function mergeSituations(seen: Array<SituationsSeen | undefined>): WalkCheckResult['situations'] {
  const out: WalkCheckResult['situations'] = {
    enumerated: 0,
    reached: new Set(),
    judged: new Set(),
    notReached: new Map(),
  };
  for (const s of seen) {
    if (!s) continue;
    out.enumerated = s.enumerated;
    for (const k of s.reached) out.reached.add(k);
    for (const k of s.judged) out.judged.add(k);
    for (const { situation, why } of s.notReached) out.notReached.set(situation, why);
  }
  for (const k of out.reached) out.notReached.delete(k);
  return out;
}
