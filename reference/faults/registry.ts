/**
 * The fault registry of the reference deployment: a set of named faults (see catalogue.ts), switched on by
 * `REFERENCE_FAULTS=a,b` or the `faults` option of startReference. A fault is a hook of reference/hooks.ts acting on
 * its own service (the hook points variants use too); each point is a no-op when no active fault defines it, so the
 * clean reference behaves exactly as before.
 */
import { FAULTS } from './catalogue.js';
import type { FaultDefinition } from './types.js';

export class UnknownFault extends Error {
  constructor(readonly names: string[]) {
    super(
      `unknown reference fault(s): ${names.join(', ')} (known: see reference/faults/catalogue.ts or npm run ` +
        `detection -- --list)`,
    );
    this.name = 'UnknownFault';
  }
}

/** Parses a comma list of fault names (REFERENCE_FAULTS). */
export const parseFaultList = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The catalogued faults of `names`, in the order first named (each acts on its own service through reference/hooks.ts).
 * @throws UnknownFault when a name is not in the catalogue.
 */
export function activeFaults(names: Iterable<string> = []): FaultDefinition[] {
  const wanted = [...new Set(names)];
  const unknown = wanted.filter((n) => !FAULTS.has(n));
  if (unknown.length) throw new UnknownFault(unknown);
  return wanted.map((n) => FAULTS.get(n)!);
}
