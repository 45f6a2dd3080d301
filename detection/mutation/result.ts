/** What a mutation measure finds about one mutant. */
import type { ServiceName } from '../../specs/common/model.js';
import type { MutantInfo } from './instrument.js';
import type { KillKind } from './outcome.js';

export type Status = 'killed' | 'timeout' | 'survived' | 'no-coverage';

export interface MutantResult {
  mutant: MutantInfo;
  status: Status;
  /** How it was killed, or why it survived. */
  reason: string;
  /** What ended the run of a killed mutant. */
  kind?: KillKind;
  services: ServiceName[];
  ms: number;
  /** Taken from the journal of an earlier measure of the same project. */
  resumed?: boolean;
}
