/**
 * A run that judged nothing (no check ran, or the preflight stopped it) leaves no trace in the report folder: its run
 * folder goes, and the report folder too when the run created it and it is empty. `reports/latest` is only ever moved
 * by a run that wrote reports (report/write.ts).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { runFolder } from '../harness/run.js';

/** What was there before the run opened its folder. */
export interface FolderBefore {
  reportDir: string;
  runId: string;
  reportDirExisted: boolean;
  folderExisted: boolean;
}

export function folderBefore(reportDir: string, runId: string): FolderBefore {
  return {
    reportDir,
    runId,
    reportDirExisted: existsSync(reportDir),
    folderExisted: existsSync(runFolder(reportDir, runId)),
  };
}

/**
 * Removes what the run added: its run folder (unless it was there before: a reused run id), and an empty report folder
 * it created.
 */
export function removeRunTrace(before: FolderBefore): void {
  if (!before.folderExisted) rmSync(runFolder(before.reportDir, before.runId), { recursive: true, force: true });
  if (!before.reportDirExisted && existsSync(before.reportDir) && readdirSync(before.reportDir).length === 0)
    rmSync(before.reportDir, { recursive: true, force: true });
}
