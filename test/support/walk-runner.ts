/**
 * Runs one service's walk check in this process, against a reference started here with the given
 * faults, as `npm run conformance` would for a run seed: the same check ID and seeded Faker, so the
 * same walk seed and the same walks (scenarios/<service>/walks.test.ts), without the cost of a
 * vitest run, a report and a cleanup per seed. Used by the walk self-tests to try many seeds.
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
import { WALKS_TITLE, type WalkBudget, runWalks } from '../../scenarios/shared/walk/walk.js';
import { type WalkConfig, walkRequirementIds } from '../../scenarios/shared/walk-config.js';

const WALKS: Record<ServiceName, { config: WalkConfig; file: string; title: string }> = {
  organization: { config: organization.organizationWalks, file: organization.WALKS_FILE, title: WALKS_TITLE },
  person: { config: person.personWalks, file: person.WALKS_FILE, title: WALKS_TITLE },
  provider: { config: provider.providerWalks, file: provider.WALKS_FILE, title: WALKS_TITLE },
};

export interface WalkCheckResult {
  verdict: 'pass' | 'fail';
  /** Requirements the failure cites. */
  requirements: string[];
  message: string;
  /** The check's note (the coverage summary). */
  note: string;
  /** The `[walks]` line. */
  line: string;
}

/**
 * @param seed the run seed (CONFORMANCE_SEED)
 * @param faults reference faults switched on (REFERENCE_FAULTS)
 * @param shrink false: stop at the first failing walk (enough to know whether the fault was found)
 * @param tours false: generated walks only (to exercise their steering and shrinking alone)
 * @param variants reference variants switched on (REFERENCE_VARIANTS), the profile patched as detection does
 * @param sendWithinMs the check's time to send from now (Check.sendBy; default: no limit)
 * @throws what the walks throw other than a ConformanceFailure (could not judge, a suite bug)
 */
export async function runWalkCheck(
  service: ServiceName,
  seed: number,
  faults: string[],
  budget: WalkBudget,
  shrink = false,
  tours = true,
  variants: string[] = [],
  sendWithinMs?: number,
): Promise<WalkCheckResult> {
  const { config, file, title } = WALKS[service];
  const reference = await startReference({ faults, variants, foreignData: false });
  try {
    const profile = variants.length ? profileOf(plannedVariants(variants)) : resolveProfile(loadProfile(), true);
    const run = new RunContext(`walks-${seed}`, mkdtempSync(join(tmpdir(), 'cf-walks-')));
    const client = new ServiceClient(referenceTarget(reference, service, profile), profile, run, {
      timeoutMs: 30000,
      maxInFlight: 8,
    });
    const checkId = `${service}/walks/${slug(title)}`;
    const t = new Check(
      service,
      walkRequirementIds(config),
      seededFaker(testSeed(seed, checkId)),
      client,
      profile,
      run,
    );
    if (sendWithinMs !== undefined) t.sendBy = Date.now() + sendWithinMs;
    const lines: string[] = [];
    try {
      await runWalks(t, config, { file, title, run: { seed, budget }, shrink, tours, log: (text) => lines.push(text) });
      return { verdict: 'pass', requirements: [], message: '', note: t.notes.join('\n'), line: lines[0] ?? '' };
    } catch (e) {
      if (!(e instanceof ConformanceFailure)) throw e;
      return {
        verdict: 'fail',
        requirements: e.requirements,
        message: e.message,
        note: t.notes.join('\n'),
        line: lines[0] ?? '',
      };
    }
  } finally {
    await reference.stop();
  }
}
