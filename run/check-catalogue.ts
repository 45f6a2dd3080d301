/**
 * The suite's check catalogue for a run's settings: every check vitest collects from the scenario files (`vitest list
 * --json`), without running any, in a vitest process of its own with the run's environment (so the same walk budget and
 * services give the same checks) but a throw-away report folder and run ID (the listing opens a run of its own, which
 * it must not mix with the real one). The certification profile compares a run's checks with it
 * (report/evidence/certification.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { CatalogueCheck } from '../report/evidence/certification.js';
import { HANDOFF } from '../harness/handoff.js';

/**
 * Lists the suite's checks.
 * @param env the run's environment (its settings); the report folder, run ID and vitest plan are replaced
 * @returns the checks, or why they could not be listed
 */
export async function collectCatalogue(
  env: Record<string, string | undefined>,
): Promise<{ checks?: CatalogueCheck[]; problem?: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'cf-catalogue-'));
  const out = join(scratch, 'list.json');
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const childEnv: Record<string, string | undefined> = {
    ...env,
    ...HANDOFF.reportDir.entry(join(scratch, 'reports')),
    ...HANDOFF.runId.entry(`catalogue-${Date.now().toString(36)}`),
    NO_COLOR: '1',
  };
  delete childEnv[HANDOFF.vitestPlan.name];
  try {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [vitest, 'list', `--json=${out}`, '--config', 'vitest.config.ts'], {
        env: childEnv,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (c) => resolve({ code: c, stderr }));
    });
    if (code !== 0) return { problem: `vitest list exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}` };
    const listed = JSON.parse(readFileSync(out, 'utf8')) as Array<{ name: string; file: string }>;
    return { checks: listed.map((t) => ({ file: relative(process.cwd(), t.file), name: t.name })) };
  } catch (e) {
    return { problem: (e as Error).message };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
