/**
 * What `npm run mutation` mutates: the embedded reference's behaviour (its server, store, handlers,
 * matching, views and authentication), never its settings or the fault and variant catalogues,
 * and which services a mutant of each file can reach.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ServiceName } from '../../specs/common/model.js';

/** Where the reference lives, relative to the project root. */
const REFERENCE = 'reference';

/**
 * Parts of reference/ that are not its behaviour, with why. Everything else under reference/
 * that is TypeScript is mutated.
 */
export const NOT_BEHAVIOUR: ReadonlyArray<{ path: string; why: string }> = [
  { path: 'reference/faults/', why: 'the fault catalogue: defects switched on by name, never on in a measured run' },
  {
    path: 'reference/variants/',
    why: 'the variant catalogue: legitimate choices switched on by name, never on in a measured run',
  },
  { path: 'reference/settings.ts', why: "the reader of the reference's settings (REFERENCE_*)" },
  {
    path: 'reference/hooks.ts',
    why: 'the hook points the faults and variants use; with none on, each is the identity',
  },
  {
    path: 'reference/occupancy.ts',
    why: 'counts requests in flight for benchmarks (npm run bench:latency); no reply reads it',
  },
];

/**
 * Functions inside behaviour files that read settings, by name: their mutants are not generated
 * (a settings reader is not behaviour a reply shows).
 */
export const SETTINGS_READERS: ReadonlySet<string> = new Set(['groupedBySourceSetting']);

/**
 * The services a mutant of a file can reach, when coverage does not say (code run at start, or a
 * measure without the coverage pass): a file's own service where it has one, else every service.
 */
const FILE_SERVICES: ReadonlyArray<[prefix: string, services: ServiceName[]]> = [
  ['reference/handlers/person.ts', ['person']],
  // scorePerson for person; nameSimilarity for the provider's practitioners.
  ['reference/matching/person.ts', ['person', 'provider']],
  // scoreOrganization for organization; organizationWeight for the provider's organizations.
  ['reference/matching/organization.ts', ['organization', 'provider']],
  ['reference/matching/provider.ts', ['provider']],
];

/** Every service of the reference. */
export const ALL_SERVICES: readonly ServiceName[] = ['organization', 'person', 'provider'];

/** The services a mutant of `file` (relative to the root) can reach by the file alone. */
export function servicesOfFile(file: string): ServiceName[] {
  return [...(FILE_SERVICES.find(([prefix]) => file === prefix)?.[1] ?? ALL_SERVICES)];
}

/** True when `file` (relative to the root) is behaviour of the reference. */
export const isBehaviour = (file: string): boolean =>
  file.startsWith(`${REFERENCE}/`) &&
  file.endsWith('.ts') &&
  !NOT_BEHAVIOUR.some((n) => file === n.path || file.startsWith(n.path));

/** Every behaviour file of the reference under `root`, relative to it, sorted. */
export function behaviourFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)],
    );
  return walk(join(root, REFERENCE))
    .map((p) => relative(root, p).split('\\').join('/'))
    .filter(isBehaviour)
    .sort();
}

/**
 * The behaviour files that `filters` pick (each a file or a folder, relative to the root, as
 * `npm run conformance` takes file filters); all of them without filters.
 * @throws Error naming a filter that picks no behaviour file
 */
export function pickFiles(root: string, filters: string[] = []): string[] {
  const all = behaviourFiles(root);
  if (!filters.length) return all;
  const picked = new Set<string>();
  for (const raw of filters) {
    const f = raw.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, '');
    const hits = all.filter((file) => file === f || file.startsWith(`${f}/`));
    if (!hits.length)
      throw new Error(
        `"${raw}" picks no behaviour file of the reference (${all.length} files under ${REFERENCE}/; npm run mutation -- --list-files)`,
      );
    for (const h of hits) picked.add(h);
  }
  return [...picked].sort();
}
