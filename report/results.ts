/** One check's result (harness/verdict.ts CheckResult), and what the run selected. */
export type { CheckResult } from '../harness/verdict.js';

/**
 * What the run selected (selection.json, written by the reporter): every test file of the suite, the files this run
 * loaded (file filters and shards select them), and the checks of those files a name filter (`-t`) left out. Coverage
 * counts only what was selected; the rest is "not run".
 */
export interface RunSelection {
  suiteFiles: string[];
  selectedFiles: string[];
  notRun: Array<{ title: string; file: string; verifies: string[] }>;
}

/** The service a scenario file belongs to (scenarios/<service>/...), if any. */
export const serviceOfFile = (file: string): string | undefined => /(?:^|\/)scenarios\/([^/]+)\//.exec(file)?.[1];
