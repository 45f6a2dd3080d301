/**
 * Runs one of the project's commands (a TypeScript script compiled, as `npm run <script>` does) in a clean
 * environment: none of the caller's ORG_, PERSON_, PROVIDER_, CONFORMANCE_ or REFERENCE_ variables,
 * no CI flag unless given. Resolves with the exit code, stdout, stderr and wall time.
 */
import { spawn } from 'node:child_process';
import { withoutSettings } from '../../harness/setting-names.js';

/**
 * Node's arguments for a command's script, as its npm script gives them: a TypeScript one compiled
 * (run/cli/compiled.mjs, in this Node: signals reach the command itself), a JavaScript one as it is.
 */
export const scriptArgs = (script: string) => (script.endsWith('.ts') ? ['run/cli/compiled.mjs', script] : [script]);

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function cleanEnv(env: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...withoutSettings(process.env, [], ['CI']), FORCE_COLOR: '0', NO_COLOR: '1', ...env };
}

export function runCommand(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  timeoutMs = 120000,
): Promise<CommandRun> {
  return runNode([...scriptArgs(script), ...args], cleanEnv(env), timeoutMs);
}

/** Runs this Node with `args` in exactly `env`, collecting its output; killed after `timeoutMs` (code null). */
export function runNode(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<CommandRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** The non-empty lines of a text. */
export const linesOf = (text: string) => text.split('\n').filter((l) => l.trim());
