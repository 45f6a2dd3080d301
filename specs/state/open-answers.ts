/**
 * The open outcomes every service's state table leaves alike (specs/<service>/state-spec.ts, `open`): what a link ID
 * no longer in use answers, what a merged source resolves to. Each takes the service's sentence and what it forbids.
 */
import type { SeedCitation } from '../common/seed.js';
import type { Forbidden, OpenOutcome } from './state-spec.js';

/**
 * What identityIdQuery answers for a link ID no longer in use, left open by `seed` in every service (a retired or
 * deleted identity's link ID may answer nothing, itself or any identity); `forbidden`: what the service's sentences
 * still forbid there.
 */
export const staleLinkAnswers = (seed: SeedCitation, forbidden: Forbidden[]): OpenOutcome => ({
  operation: 'identityIdQuery',
  what:
    'what a link ID no longer in use answers: nothing, itself, or any identity, along any chain of moves, for ever, ' +
    'after any delete',
  seed,
  forbidden,
});

/**
 * What nativeIdQuery answers for a source merged into another (`noun`: what the service calls it), left open by the
 * merge sentence `seed`: the survivor's identity or nothing; an identity other than the survivor's is forbidden.
 */
export const mergedSourceAnswers = (noun: string, seed: SeedCitation): OpenOutcome => ({
  operation: 'nativeIdQuery',
  what: `what a ${noun} source resolves to: the survivor's identity or nothing`,
  seed,
  forbidden: [{ what: "an identity other than the survivor's (now or at the merge)", seed }],
});
