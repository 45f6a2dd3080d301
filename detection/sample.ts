/**
 * The sample of the catalogues that `npm test` runs (test/faults-detection.test.ts): the whole catalogues take about 20
 * minutes on two cores, so `npm run detection` runs every fault and variant and `npm test` a fixed sample of them that
 * still meets every kind of fault.
 *
 * Faults: every STRIDE-th fault of the catalogue (in catalogue order, which groups faults by kind and service), plus
 * every fault of the kind a sample must never miss that no other self-test runs: the state faults (an outcome judged in
 * a state only the whole-state oracle reaches), and a few named ones (NAMED). The sequence faults (a defect only a
 * chain of rows shows) are run by test/walks-coverage.test.ts, every one at three run seeds, and end to end by the
 * walks self-tests, so here only as the stride meets them. Variants: the bundles of the open outcomes of the state
 * tables and of the commonest shape and lag choices.
 */
import { FAULT_LIST } from '../reference/faults/catalogue.js';
import { STATE_FAULTS } from '../reference/faults/state-faults.js';

/** One fault in STRIDE of the catalogue is sampled (besides the kinds always sampled). */
export const STRIDE = 20;

/**
 * Faults in states a single hand-picked check used to miss: each lookup form of householdQuery, overlapping
 * notification pages.
 */
const NAMED = [
  'person-household-linkid-key-ignored',
  'person-household-source-key-ignored',
  'person-household-id-key-ignored',
  'notif-duplicates',
  'person-notif-duplicates',
  'provider-notif-duplicates',
];

/** Names of the sampled faults, in catalogue order. */
export function sampleFaults(): string[] {
  const always = new Set(STATE_FAULTS.map((f) => f.name).concat(NAMED));
  return FAULT_LIST.filter((f, i) => i % STRIDE === 0 || always.has(f.name)).map((f) => f.name);
}

/**
 * The variants that take the other legitimate choice of an outcome the state tables leave open
 * (specs/<service>/state-spec.ts `open`).
 */
export const OPEN_OUTCOME_VARIANTS = [
  'retired-follow-survivor',
  'retired-link-forwarding',
  'retired-lookup-absent',
  'retired-data-hidden',
  'retired-data-shown',
  'soft-deleted-data-shown',
  'departed-data-shown',
  'lenient-preconditions',
  'no-households',
  'stale-links=chain',
  'retired-released',
  'members-follow',
];

/** Specs of the sampled variants: two bundles' worth (detection/variants.ts bundles them). */
export const SAMPLE_VARIANTS = [
  ...OPEN_OUTCOME_VARIANTS,
  // Shapes, statuses, link ID formats, lags and paging the seeds leave open.
  'status-4xx',
  'absent-optional',
  'link-id-format=urn',
  'search-lag=600',
  'pages-from-1',
  'event-shapes=objects',
];

/**
 * Drawn deployments of the sample (detection/drawn.ts): seed 1 draws other users writing beside a lagging feed, 5xx
 * rejections and open outcomes.
 */
export const SAMPLE_DRAWN_SEEDS = [1];
