/**
 * The suite's checks as data, listed without vitest: while a listing runs, registering a check (harness/register.ts
 * scenario().check) declares it here instead of handing it to vitest, with the scenario file being loaded, and the
 * checks read the run's budgets from the listing (harness/targets.ts runInfo: a walk check's parts depend on them).
 * `npm run conformance -- --list`, `--requirement`, a known-failures list's check IDs and the evidence bundle's
 * catalogue all read this one listing (run/check-ids.ts).
 */
import type { RunInfo } from './run-info.js';
import type { CheckDeclaration } from './verdict.js';

/** A check of the suite as a listing shows it: its declaration and its scenario file. */
export type ListedCheck = CheckDeclaration & { file: string };

interface Listing {
  info: RunInfo;
  file: string;
  checks: ListedCheck[];
}

/**
 * The listing under way, kept on the global object: the lister (bundled into a command) and the scenario files it
 * loads (through tsx) hold separate copies of this module.
 */
const LISTING = Symbol.for('identity-conformance.listing');
const g = globalThis as typeof globalThis & { [LISTING]?: Listing };

/** The run's settings as a listing gives them (the budgets alone), or undefined outside a listing. */
export const listingInfo = (): RunInfo | undefined => g[LISTING]?.info;

/** Declares a check to the listing under way: true when there is one (the check is then not registered with vitest). */
export function declareListed(d: CheckDeclaration): boolean {
  const listing = g[LISTING];
  if (!listing) return false;
  listing.checks.push({ ...d, file: listing.file });
  return true;
}

/**
 * Lists the checks `files` register, loading each with `load`, in that order.
 * @param budgets the run's walk and bad-input budgets (harness/config.ts resolveBudgets)
 * @throws Error naming the file when one cannot be loaded
 */
export async function listChecks(
  budgets: RunInfo['budgets'],
  files: readonly string[],
  load: (file: string) => Promise<unknown>,
): Promise<ListedCheck[]> {
  const listing: Listing = { info: { budgets } as RunInfo, file: '', checks: [] };
  g[LISTING] = listing;
  try {
    for (const file of files) {
      listing.file = file;
      await load(file).catch((e: Error) => {
        throw new Error(`${file} could not be loaded: ${e.message}`);
      });
    }
    return listing.checks;
  } finally {
    delete g[LISTING];
  }
}
