/**
 * The hand-over between the run's reporter, which sees scenario files end, and its global setup,
 * which owns the targets and the teardown (run/early-removal.ts). Both run in vitest's main
 * process but are loaded by different module loaders, so they meet on a global. Events that come
 * before the global setup attaches its listener are kept and handed over when it does. No imports:
 * the reporter loads this before the run's first check.
 */

/** What wants to know which files the run holds and when each has ended (paths relative to the project root). */
export interface FileListener {
  selected(files: string[]): void;
  fileEnded(file: string): void;
}

interface FileEvents {
  selected?: string[];
  ended: string[];
  listener?: FileListener;
}

const KEY = Symbol.for('identity-conformance.file-events');

function events(): FileEvents {
  const g = globalThis as { [KEY]?: FileEvents };
  return (g[KEY] ??= { ended: [] });
}

/** The run holds these files (the reporter, at the run's start). */
export function filesSelected(files: string[]): void {
  const e = events();
  if (e.listener) e.listener.selected(files);
  else e.selected = files;
}

/** Every check of `file` has ended (the reporter). */
export function fileEnded(file: string): void {
  const e = events();
  if (e.listener) e.listener.fileEnded(file);
  else e.ended.push(file);
}

/** Attaches `listener`, handing it the events that came before. */
export function attachFileListener(listener: FileListener): void {
  const e = events();
  e.listener = listener;
  if (e.selected) listener.selected(e.selected);
  for (const f of e.ended.splice(0)) listener.fileEnded(f);
}

/** Detaches the listener and forgets the events (the run's teardown). */
export function detachFileListener(): void {
  const g = globalThis as { [KEY]?: FileEvents };
  delete g[KEY];
}
