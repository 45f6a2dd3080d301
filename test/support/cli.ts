/** Runs one of the project's command-line tools (run/cli/<name>.ts) with tsx and returns its exit code and output. */
import { spawnSync } from 'node:child_process';

/** Runs a TypeScript entry point in this Node with tsx's loader (no tsx CLI process in between: signals reach the command itself). */
const TSX = ['--import', 'tsx'];

export function runCli(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...TSX, `run/cli/${name}.ts`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
