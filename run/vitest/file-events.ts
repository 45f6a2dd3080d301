/**
 * The hand-over between the run's reporter, which sees scenario files end, and its global setup, which owns the targets
 * and the teardown (run/vitest/early-removal.ts). Both run in vitest's main process but are loaded by different module
 * loaders, so they meet on a global, keyed by vitest project (a process may run several). Events that come before a
 * project's listener attaches are kept and handed over when it does. No imports: the reporter loads this before the
 * first check.
 */

/** What wants to know which files a run holds and when each has ended (paths relative to the project root). */
export interface FileListener {
  selected(files: string[]): void;
  /**
   * Every check of `file` has ended. `settled` is false when one of them failed: a check that timed out may still be
   * sending requests (vitest does not stop its body), so its file's records stay.
   */
  fileEnded(file: string, settled: boolean): void;
}

interface ProjectEvents {
  selected?: string[];
  ended: Array<{ file: string; settled: boolean }>;
  listener?: FileListener;
  /** A file has ended (kept when the listener takes the events). */
  anyEnded?: boolean;
  /** A check has ended (run/vitest/global-setup.ts: an interrupt before any did ends the run at once). */
  anyCheckEnded?: boolean;
  /** Called once, when the first file ends. */
  waiting: Array<() => void>;
}

const KEY = Symbol.for('identity-conformance.file-events');

function events(project: string): ProjectEvents {
  const g = globalThis as { [KEY]?: Map<string, ProjectEvents> };
  const all = (g[KEY] ??= new Map());
  let e = all.get(project);
  if (!e) all.set(project, (e = { ended: [], waiting: [] }));
  return e;
}

/** The run of `project` holds these files (the reporter, at the run's start). */
export function filesSelected(project: string, files: string[]): void {
  const e = events(project);
  if (e.listener) e.listener.selected(files);
  else e.selected = files;
}

/** Every check of `file` has ended (the reporter); `settled` as in FileListener. */
export function fileEnded(project: string, file: string, settled: boolean): void {
  const e = events(project);
  e.anyEnded = true;
  for (const then of e.waiting.splice(0)) then();
  if (e.listener) e.listener.fileEnded(file, settled);
  else e.ended.push({ file, settled });
}

/** A check of `project` has ended (the reporter). */
export function checkEnded(project: string): void {
  events(project).anyCheckEnded = true;
}

/** True once a check of `project` has ended. */
export function anyCheckEnded(project: string): boolean {
  return Boolean(events(project).anyCheckEnded);
}

/** Calls `then` once the first file of `project` has ended (at once when one has). */
export function afterFirstFileEnds(project: string, then: () => void): void {
  const e = events(project);
  if (e.anyEnded) then();
  else e.waiting.push(then);
}

/** Attaches `listener` to `project`'s events, handing it those that came before. */
export function attachFileListener(project: string, listener: FileListener): void {
  const e = events(project);
  e.listener = listener;
  if (e.selected) listener.selected(e.selected);
  for (const { file, settled } of e.ended.splice(0)) listener.fileEnded(file, settled);
}

/** Detaches `project`'s listener and forgets its events (the run's teardown). */
export function detachFileListener(project: string): void {
  (globalThis as { [KEY]?: Map<string, ProjectEvents> })[KEY]?.delete(project);
}
