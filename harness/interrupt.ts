/**
 * The run's interrupt as the checks of a test worker see it: an AbortSignal, aborted when vitest cancels the run
 * (run/vitest/side-by-side-runner.mjs aborts it; run/interrupt.ts says when). A check sends with it
 * (harness/register.ts), so that once it is aborted nothing more is sent and requests under way end
 * (harness/transport.ts). Shared with the runner under a global key, because the runner and the harness are loaded by
 * different module loaders in one thread.
 */
import { setMaxListeners } from 'node:events';

const INTERRUPT = Symbol.for('identity-conformance/run-interrupt');

type WithInterrupt = typeof globalThis & { [INTERRUPT]?: AbortController };

/** This thread's run interrupt (never aborted outside a run that uses the side-by-side runner). */
export function runInterrupt(): AbortSignal {
  const g = globalThis as WithInterrupt;
  const { signal } = (g[INTERRUPT] ??= new AbortController());
  // Every request under way listens to it (harness/transport.ts): hundreds at once in a large run.
  setMaxListeners(0, signal);
  return signal;
}
