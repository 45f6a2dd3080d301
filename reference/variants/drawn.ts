/**
 * Drawn deployments: for a seed, one legitimate option of every choice the seeds leave open, so a run meets
 * combinations nobody listed. `REFERENCE_VARIANTS=drawn=<seed>` switches the drawn variants on
 * (reference/variants/registry.ts expands it); `npm run detection` runs many seeds.
 *
 * Every dimension below is a choice of the variant catalogue (reference/variants/catalogue.ts), whose entries cite the
 * seed sentences that leave it open: the reference's own behaviour is one option of each, the catalogue's others the
 * rest, parameters drawn within their legitimate range. Options that conflict with one drawn earlier are skipped
 * (VariantDefinition.conflicts). The operating conditions come last (throttling, restarts, slow tails, transient
 * failures, other users writing), so adding them left every earlier seed's draw of the other dimensions as it was.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { VARIANTS } from './catalogue.js';

/** A choice: its options (variant specs; '' = the reference's own behaviour), drawn with equal odds unless weighted. */
export interface Dimension {
  /** What is chosen, for listings. */
  what: string;
  /** The catalogue variants it may draw (their entries cite the seed sentences that leave the choice open). */
  variants: string[];
  options: (draw: Draw) => string[];
}

interface Draw {
  /** A uniform number in [0, 1). */
  next(): number;
  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number;
}

const nameOf = (spec: string) => spec.split('=')[0]!;
const onOff = (what: string, spec: string, odds = 0.35): Dimension => ({
  what,
  variants: [nameOf(spec)],
  options: (d) => (d.next() < odds ? [spec] : ['']),
});
const oneOf = (what: string, specs: string[]): Dimension => ({
  what,
  variants: [...new Set(specs.map(nameOf))],
  options: () => ['', ...specs],
});
/** A parameterised variant drawn with `odds`, its value drawn by `value`. */
const sometimes = (what: string, variants: string[], odds: number, value: (d: Draw) => string): Dimension => ({
  what,
  variants,
  options: (d) => (d.next() < odds ? [value(d)] : ['']),
});

/** The dimensions, in a fixed order (a seed always draws the same deployment). */
export const DIMENSIONS: Dimension[] = [
  oneOf('request validation', ['lenient-validation', 'strict-validation']),
  oneOf('HTTP status of failures', ['status-200', 'status-4xx', 'status-500']),
  onOff('absent optional members', 'absent-optional'),
  onOff('extra members', 'extra-members'),
  onOff('minimal replies', 'minimal-replies'),
  onOff('identityGroupedBySource not sent', 'no-grouped-by-source'),
  oneOf('link ID format', ['link-id-format=uuid', 'link-id-format=numeric', 'link-id-format=urn']),
  sometimes('search index lag', ['search-lag'], 0.35, (d) => `search-lag=${d.int(100, 1500)}`),
  sometimes('notification feed lag', ['notification-lag'], 0.35, (d) => `notification-lag=${d.int(100, 1500)}`),
  sometimes('clock skew', ['clock-skew'], 0.35, (d) => `clock-skew=${d.int(500, 5000) * (d.next() < 0.5 ? -1 : 1)}`),
  onOff('pages numbered from 1', 'pages-from-1'),
  sometimes('page size cap', ['page-size-cap'], 0.3, (d) => `page-size-cap=${d.int(1, 5)}`),
  oneOf('events and notification shapes', ['event-shapes=strings', 'event-shapes=objects', 'no-events']),
  onOff('DATE-TIME with an offset', 'datetime-offset'),
  sometimes('match threshold', ['threshold'], 0.4, (d) => `threshold=${(0.6 + d.next() * 0.37).toFixed(2)}`),
  sometimes('system maximum of search results', ['max-results'], 0.3, (d) => `max-results=${d.int(1, 10)}`),
  onOff('restore of an unknown source succeeds', 'restore-after-delete-succeeds'),
  oneOf('which identity a restored source returns to', ['restore-new-identity', 'restore-joins-other']),
  onOff('soft-deleted source still found', 'soft-deleted-visible'),
  onOff('relationship search answers one object', 'relationship-object'),
  onOff('other member names', 'member-names'),
  onOff('source reference in content', 'source-in-content'),
  onOff('one configured relationship verb', 'relationship-verbs'),
  onOff('person service on basic auth', 'person-basic-auth'),
  // Outcomes the state tables leave open (specs/<service>/state-spec.ts).
  oneOf('what becomes of sources merged into a record that moves or goes', [
    'retired-follow-survivor',
    'retired-released',
  ]),
  onOff('other sources go along with a merged or linked source', 'members-follow'),
  oneOf('what a link ID out of use answers', [
    'retired-link-forwarding',
    'stale-links=chain',
    'stale-links=self',
    'stale-links=any',
  ]),
  onOff('merged source found by nothing', 'retired-lookup-absent'),
  onOff('survivor hides merged data', 'retired-data-hidden'),
  onOff('survivor shows merged attributes (person)', 'retired-data-shown'),
  onOff('soft-deleted data still shown', 'soft-deleted-data-shown'),
  onOff('departed data still shown', 'departed-data-shown'),
  onOff('requests from unnamed states accepted', 'lenient-preconditions'),
  onOff('no households', 'no-households', 0.2),
  // Operating conditions (reference/variants/transport.ts, busy.ts).
  sometimes(
    'throttling gateway (429, Retry-After or not)',
    ['throttled', 'throttled-bare'],
    0.25,
    (d) => `${d.next() < 0.5 ? 'throttled' : 'throttled-bare'}=${d.int(20, 60)}`,
  ),
  sometimes('restarts (HTTP 503 for seconds)', ['restarts'], 0.25, (d) => `restarts=${d.int(1, 5)}/${d.int(20, 60)}`),
  sometimes(
    'slow tail',
    ['slow-tail'],
    0.3,
    (d) => `slow-tail=${(0.01 + d.next() * 0.09).toFixed(2)}/${d.int(10, 40) * 100}`,
  ),
  sometimes('transient failures', ['transient'], 0.2, (d) => `transient=${(0.02 + d.next() * 0.13).toFixed(2)}`),
  sometimes('other users writing', ['busy'], 0.35, (d) => `busy=${d.int(1, 10)}`),
];

/** The variant specs a seed draws: one option per dimension, conflicting ones left out. */
export function drawDeployment(seed: number, dimensions: readonly Dimension[] = DIMENSIONS): string[] {
  const rng = xoroshiro128plus(seed);
  // The first outputs of a small seed are not well mixed.
  for (let i = 0; i < 4; i++) uniformFloat64(rng);
  const d: Draw = {
    next: () => uniformFloat64(rng),
    int: (min, max) => min + Math.floor(uniformFloat64(rng) * (max - min + 1)),
  };
  const chosen: string[] = [];
  for (const dim of dimensions) {
    const options = dim.options(d);
    const spec = options[Math.floor(d.next() * options.length)] ?? '';
    if (!spec) continue;
    const def = VARIANTS.get(spec.split('=')[0]!);
    if (!def) throw new Error(`drawn deployment: no variant ${spec}`);
    const clash = chosen.some((c) => {
      const other = VARIANTS.get(c.split('=')[0]!)!;
      return (other.conflicts ?? []).includes(def.name) || (def.conflicts ?? []).includes(other.name);
    });
    if (!clash) chosen.push(spec);
  }
  return chosen;
}
