/**
 * Drawn deployments: for a seed, one legitimate option of every choice the seeds leave open, so a
 * run meets combinations nobody listed. `REFERENCE_VARIANTS=drawn=<seed>` switches the drawn
 * variants on (reference/variants/registry.ts expands it); `npm run detection` runs many seeds.
 *
 * Every dimension below is a choice of the variant catalogue (reference/variants/catalogue.ts),
 * whose entries cite the seed sentences that leave it open: the reference's own behaviour is one
 * option of each, the catalogue's others the rest, parameters drawn within their legitimate range.
 * Options that conflict with one drawn earlier are skipped (VariantDefinition.conflicts).
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { VARIANTS } from './catalogue.js';

/** A choice: its options (variant specs; '' = the reference's own behaviour), drawn with equal odds unless weighted. */
interface Dimension {
  /** What is chosen, for listings. */
  what: string;
  options: (draw: Draw) => string[];
}

interface Draw {
  /** A uniform number in [0, 1). */
  next(): number;
  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number;
}

const onOff = (what: string, spec: string, odds = 0.35): Dimension => ({
  what,
  options: (d) => (d.next() < odds ? [spec] : ['']),
});
const oneOf = (what: string, specs: string[]): Dimension => ({ what, options: () => ['', ...specs] });

/** The dimensions, in a fixed order (a seed always draws the same deployment). */
export const DIMENSIONS: Dimension[] = [
  oneOf('request validation', ['lenient-validation', 'strict-validation']),
  oneOf('HTTP status of failures', ['status-200', 'status-4xx', 'status-500']),
  onOff('absent optional members', 'absent-optional'),
  onOff('extra members', 'extra-members'),
  onOff('minimal replies', 'minimal-replies'),
  onOff('identityGroupedBySource not sent', 'no-grouped-by-source'),
  oneOf('link ID format', ['link-id-format=uuid', 'link-id-format=numeric', 'link-id-format=urn']),
  { what: 'search index lag', options: (d) => (d.next() < 0.35 ? [`search-lag=${d.int(100, 1500)}`] : ['']) },
  { what: 'notification feed lag', options: (d) => (d.next() < 0.35 ? [`notification-lag=${d.int(100, 1500)}`] : ['']) },
  { what: 'clock skew', options: (d) => (d.next() < 0.35 ? [`clock-skew=${d.int(500, 5000) * (d.next() < 0.5 ? -1 : 1)}`] : ['']) },
  onOff('pages numbered from 1', 'pages-from-1'),
  { what: 'page size cap', options: (d) => (d.next() < 0.3 ? [`page-size-cap=${d.int(1, 5)}`] : ['']) },
  oneOf('events and notification shapes', ['event-shapes=strings', 'event-shapes=objects', 'no-events']),
  onOff('DATE-TIME with an offset', 'datetime-offset'),
  { what: 'match threshold', options: (d) => (d.next() < 0.4 ? [`threshold=${(0.6 + d.next() * 0.37).toFixed(2)}`] : ['']) },
  { what: 'system maximum of search results', options: (d) => (d.next() < 0.3 ? [`max-results=${d.int(1, 10)}`] : ['']) },
  onOff('restore of an unknown source succeeds', 'restore-after-delete-succeeds'),
  onOff('restore into a new identity', 'restore-new-identity'),
  onOff('soft-deleted source still found', 'soft-deleted-visible'),
  onOff('relationship search answers one object', 'relationship-object'),
  onOff('other member names', 'member-names'),
  onOff('source reference in content', 'source-in-content'),
  onOff('one configured relationship verb', 'relationship-verbs'),
  onOff('person service on basic auth', 'person-basic-auth'),
  // Outcomes the state tables leave open (specs/<service>/state-spec.ts).
  onOff('merged sources follow their survivor', 'retired-follow-survivor'),
  onOff('link IDs out of use forward', 'retired-link-forwarding'),
  onOff('merged source found by nothing', 'retired-lookup-absent'),
  onOff('survivor hides merged data', 'retired-data-hidden'),
  onOff('survivor shows merged attributes (person)', 'retired-data-shown'),
  onOff('soft-deleted data still shown', 'soft-deleted-data-shown'),
  onOff('departed data still shown', 'departed-data-shown'),
  onOff('requests from unnamed states accepted', 'lenient-preconditions'),
  onOff('no households', 'no-households', 0.2),
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
