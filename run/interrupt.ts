/**
 * How the run's vitest process learns that `npm run conformance` was interrupted. The command (run/cli/conformance.mjs)
 * starts the vitest process in a process group of its own, so that a signal to the command's group (a terminal's
 * Ctrl-C, `kill -- -<pgid>`) reaches only the command, which decides for the whole run; it hands the vitest process one
 * end of a pipe, whose file descriptor it names in HANDOFF.stopFd (harness/handoff.ts), and writes on it the name of
 * the signal it received. When the command itself ends without a word (killed, its parent gone), the pipe closes: the
 * vitest process takes that as SIGTERM. Either way the run stops sending, removes what it created and writes its report
 * marked INTERRUPTED (run/vitest/global-setup.ts).
 */
import { Socket } from 'node:net';
import { type Env, HANDOFF } from '../harness/handoff.js';

/** File descriptor of the stop pipe in the vitest process: the first after stdin, stdout and stderr. */
export const STOP_FD = 3;

/**
 * The stop pipe as the command sets it up (RunPlan.stopPipe): its file descriptor, and the variable naming it to the
 * vitest process.
 */
export const stopPipe = () => ({ fd: STOP_FD, env: HANDOFF.stopFd.entry(STOP_FD) });

/** The signals the command passes on; a closed pipe counts as SIGTERM. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Why a run stopped: the signal (which decides the exit code, 130 or 143) and what sent it. */
export interface StopRequest {
  signal: StopSignal;
  /** In words, e.g. "SIGTERM to npm run conformance" or "npm run conformance ended". */
  reason: string;
}

/**
 * Calls `onStop` once when the command asks the run to stop, or ends. Does nothing when the process was not started by
 * the command (no HANDOFF.stopFd: vitest run directly). The pipe never keeps the process alive.
 * @returns a function that stops listening
 */
export function onStopRequest(onStop: (request: StopRequest) => void, env?: Env): () => void {
  const fd = HANDOFF.stopFd.read(env);
  if (fd === undefined || !Number.isInteger(fd) || fd < 3) return () => {};
  let pipe: Socket;
  try {
    pipe = new Socket({ fd, readable: true, writable: false });
  } catch {
    return () => {};
  }
  let told = false;
  const tell = (request: StopRequest) => {
    if (told) return;
    told = true;
    onStop(request);
  };
  let text = '';
  pipe.setEncoding('utf8');
  pipe.on('data', (d: string) => {
    text += d;
    const line = text.split('\n').find((l, i, all) => i < all.length - 1 && l.trim());
    if (!line) return;
    const [signal, ...words] = line.trim().split(' ');
    tell({
      signal: signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM',
      reason: words.join(' ') || `${signal} to npm run conformance`,
    });
  });
  const ended = () =>
    tell({ signal: 'SIGTERM', reason: 'npm run conformance ended before the run (its process was killed)' });
  pipe.on('end', ended);
  pipe.on('error', ended);
  pipe.unref();
  return () => {
    told = true;
    pipe.destroy();
  };
}
