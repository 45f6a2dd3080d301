/**
 * A guard on the stack traces of the run's main process. Vite's module runner, which loads the global setup, maps every
 * error's stack through the source maps of the modules it evaluated; for a module whose code it holds as other than
 * text it throws while doing so (`TypeError: code.charCodeAt is not a function`, vite/dist/node/module-runner.js
 * extractInlineSourceMap). Where the stack is read inside an event listener (a socket destroyed with an error when an
 * interrupted run's requests end) that ends the whole process before it writes its report. With the guard, a stack that
 * cannot be mapped is given unmapped.
 */

type Prepare = (error: Error, frames: NodeJS.CallSite[]) => unknown;
const GUARDED = Symbol('guarded stack traces');

/** Wraps the installed Error.prepareStackTrace (if any) once, so that it never throws. */
export function guardStackTraces(): void {
  const mapped = Error.prepareStackTrace as (Prepare & { [GUARDED]?: true }) | undefined;
  if (!mapped || mapped[GUARDED]) return;
  const guarded: Prepare & { [GUARDED]?: true } = (error, frames) => {
    try {
      return mapped(error, frames);
    } catch {
      return `${String(error)}\n${frames.map((f) => `    at ${String(f)}`).join('\n')}`;
    }
  };
  guarded[GUARDED] = true;
  Error.prepareStackTrace = guarded as typeof Error.prepareStackTrace;
}
