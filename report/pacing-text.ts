/**
 * How a service's requests were paced (harness/pacing.ts PacingFigures), in words, for the console summary, summary.md
 * and report.html: attempts and transient failures, time paused, in-flight bound and rate (lowest and final).
 */
import type { PacingFigures } from '../harness/pacing.js';

/** True when the figures hold something worth a line: a transient failure, a pause, a lowered bound, or a rate. */
export const pacingNotable = (f: PacingFigures): boolean =>
  f.transientFailures > 0 || f.pausedMs > 0 || f.bound.lowest < f.bound.ceiling || f.rate.lowest !== undefined;

const perSecond = (r: number | undefined) => (r === undefined ? 'no limit' : `${r}/s`);

/** Figures as short phrases, e.g. ["1234 attempts, 56 failed transiently (40 throttled)", "paused 12.3 s", ...]. */
export function pacingPhrases(f: PacingFigures): string[] {
  const out = [
    `${f.attempts} attempts, ` +
      `${f.transientFailures ? `${f.transientFailures} failed transiently${f.throttled ? ` (${f.throttled} throttled)` : ''}` : 'none failed transiently'}`,
    `paused ${(f.pausedMs / 1000).toFixed(1)} s`,
    `in flight at most ` +
      `${f.bound.ceiling}${f.bound.lowest < f.bound.ceiling ? ` (lowest ${f.bound.lowest}, final ${f.bound.final})` : ''}`,
  ];
  if (f.rate.lowest !== undefined)
    out.push(
      `rate ${f.rate.configured !== undefined ? `at most ${perSecond(f.rate.configured)}, ` : ''}lowest ` +
        `${perSecond(f.rate.lowest)}, final ${perSecond(f.rate.final)}`,
    );
  return out;
}
