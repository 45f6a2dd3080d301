/**
 * `reports/latest`: a relative symbolic link to the newest run folder (so the report folder can be moved or archived
 * whole), or a copy of it where links cannot be made.
 */
import { cpSync, existsSync, lstatSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export function pointLatest(reportDir: string, folder: string): void {
  const latest = join(reportDir, 'latest');
  try {
    if (existsSync(latest) || lstatSync(latest, { throwIfNoEntry: false }))
      rmSync(latest, { recursive: true, force: true });
    symlinkSync(relative(resolve(reportDir), resolve(folder)), latest, 'dir');
  } catch {
    cpSync(folder, latest, { recursive: true });
  }
}
