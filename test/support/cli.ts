/** Runs one of the project's command-line tools (run/cli/<name>.ts) as its npm script does and returns its exit code and output. */
import { spawnSync } from 'node:child_process';
import { scriptArgs } from './command.js';

export function runCli(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...scriptArgs(`run/cli/${name}.ts`), ...args], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
