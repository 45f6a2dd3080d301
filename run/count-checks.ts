/**
 * Counts the checks a conformance run will start, before it starts, so the progress display has
 * its total from the first check on: `vitest list` with the run's own filters (files, `-t`,
 * `--shard`) in the config's list mode (CONFORMANCE_LIST=1: no global setup and no reporters,
 * one worker that loads the modules once; about 4 s for the whole suite on two cores).
 *
 * @returns the number of checks, or undefined when listing failed (the display then counts up as
 *   files are collected and says "at least")
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Run options that make no sense for a listing (vitest list rejects or ignores them); those in VALUED take a value. */
const NOT_FOR_LIST = /^--(reporter|outputFile|bail|retry|coverage|ui|watch|silent)(=|$)/;
const VALUED = /^--(reporter|outputFile|bail|retry)$/;

/** The run's arguments without those NOT_FOR_LIST (and the value after a valued one). */
export function listArgs(args: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!NOT_FOR_LIST.test(args[i]!)) kept.push(args[i]!);
    else if (VALUED.test(args[i]!)) i++;
  }
  return kept;
}

export function countChecks(vitestBin: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'cf-list-'));
  const out = join(dir, 'list.json');
  const kept = listArgs(args);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitestBin, 'list', '--config', 'vitest.config.ts', `--json=${out}`, ...kept], { env: { ...env, CONFORMANCE_LIST: '1' }, stdio: 'ignore' });
    child.on('error', () => resolve(undefined));
    child.on('exit', (code) => {
      try {
        const list = JSON.parse(readFileSync(out, 'utf8')) as unknown[];
        resolve(code === 0 && Array.isArray(list) ? list.length : undefined);
      } catch {
        resolve(undefined);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
