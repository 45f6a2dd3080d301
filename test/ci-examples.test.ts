/**
 * examples/ci/: the GitHub Actions workflow and the GitLab CI job parse as YAML, every
 * `npm run <script>` they call exists in package.json, the shard matrix covers 1..n with
 * `--shard=i/n`, secrets come from the CI secret store, the Markdown summary goes to the job
 * summary and the JUnit report is an artifact. The commands themselves run in
 * shard-merge.test.ts (conformance --shard, report:merge) and compare-runs.test.ts.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { type RunningReference, startReference } from '../reference/server.js';
import { cleanEnv } from './support/command.js';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const load = (file: string) => {
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text, { uniqueKeys: true, strict: true });
  expect(
    doc.errors.map((e) => e.message),
    file,
  ).toEqual([]);
  expect(
    doc.warnings.map((e) => e.message),
    file,
  ).toEqual([]);
  return { text, yaml: parse(text) as Record<string, any> };
};
const npmScripts = (text: string) => [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
const runLines = (jobs: Record<string, any>) =>
  Object.values(jobs).flatMap((j: any) => [
    ...(j.steps ?? []).map((s: any) => s.run).filter(Boolean),
    ...(j.script ?? []),
  ]) as string[];

describe('GitHub Actions workflow', () => {
  const { text, yaml } = load('examples/ci/github-actions.yml');

  it('calls only npm scripts that exist', () => {
    const called = npmScripts(runLines(yaml.jobs).join('\n'));
    expect(called).toEqual(expect.arrayContaining(['conformance', 'report:merge', 'report:allure']));
    for (const s of called) expect(scripts, s).toHaveProperty(s);
  });

  it('shards with a matrix, takes the token from secrets, uploads reports and writes the job summary', () => {
    const matrix = yaml.jobs.shard.strategy.matrix.shard as number[];
    expect(matrix).toEqual(Array.from({ length: matrix.length }, (_, i) => i + 1));
    const run = runLines({ shard: yaml.jobs.shard }).find((l) => l.includes('npm run conformance'))!;
    expect(run).toContain(`--shard=\${{ matrix.shard }}/${matrix.length}`);
    const env = yaml.jobs.shard.steps.find((s: any) => s.run === run).env;
    expect(env.ORG_TOKEN).toBe(`$${'{{'} secrets.ORG_TOKEN }}`);
    // The first run has no known-failures list: the workflow names none unless the file is there.
    expect(text).not.toMatch(/CONFORMANCE_KNOWN_FAILURES: known-failures/);
    expect(text).toContain('known-failures/staging.passed.json');
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+/); // no literal JWT
    const uses = Object.values(yaml.jobs).flatMap((j: any) => j.steps.map((s: any) => s.uses).filter(Boolean));
    expect(uses.filter((u: string) => u.startsWith('actions/upload-artifact'))).toHaveLength(2);
    expect(runLines(yaml.jobs).some((l) => /summary\.md >> "\$GITHUB_STEP_SUMMARY"/.test(l))).toBe(true);
    expect(yaml.jobs.report.needs).toBe('shard');
  });
});

describe('GitLab CI job', () => {
  const { yaml } = load('examples/ci/gitlab-ci.yml');

  it('calls only npm scripts that exist and shards with parallel', () => {
    const called = npmScripts(runLines({ a: yaml.conformance, b: yaml['conformance-report'] }).join('\n'));
    for (const s of called) expect(scripts, s).toHaveProperty(s);
    expect(yaml.conformance.parallel).toBeGreaterThan(1);
    expect(yaml.conformance.script.join('\n')).toContain('--shard=$CI_NODE_INDEX/$CI_NODE_TOTAL');
  });

  it('publishes the JUnit report as an artifact', () => {
    expect(yaml.conformance.artifacts.reports.junit).toMatch(/junit\.xml$/);
    expect(yaml['conformance-report'].artifacts.reports.junit).toMatch(/junit\.xml$/);
    expect(yaml.conformance.artifacts.when).toBe('always');
  });
});

/**
 * The GitHub Actions workflow's own steps, executed as written (each `run:` with bash, its
 * expressions filled in as GitHub would, the actions emulated: the artifact handed from the shards
 * to the report job by copying, the cache empty as on a first run) against a reference given as
 * the deployment, with only the secret and the variables set: every step succeeds, the merged
 * report is written, the gate step ends with the merged run's exit code, and the job summary holds
 * its summary.md.
 */
describe('the GitHub Actions workflow, run as written against the reference', () => {
  const ROOT = process.cwd();
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ faults: [] });
  });
  afterAll(() => ref.stop());

  it('succeeds on a first run with only the secret and variables set', async () => {
    const { yaml } = load('examples/ci/github-actions.yml');
    const runId = `9${Date.now() % 1e8}`;
    const work = mkdtempSync(join(tmpdir(), 'cf-gha-'));
    const output = join(work, 'github-output');
    const summary = join(work, 'step-summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const outputs = () =>
      Object.fromEntries(
        readFileSync(output, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('=') as [string, string]),
      );
    const fill = (text: string, shard?: number): string =>
      text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
        const value: Record<string, string> = {
          'matrix.shard': String(shard),
          'vars.ORG_BASE_URL': ref.url,
          'vars.ORG_SOURCES': 'cf_test_a,cf_test_b',
          'secrets.ORG_TOKEN': ref.token,
          'github.run_id': runId,
          'github.run_attempt': '1',
          'env.CONFORMANCE_RUN_ID': `gh-${runId}-1`,
        };
        if (expr in value) return value[expr]!;
        const step = /^steps\.merge\.outputs\.code \|\| 1$/.test(expr) ? (outputs().code ?? '1') : undefined;
        if (step !== undefined) return step;
        throw new Error(`expression not filled in by this test: ${expr}`);
      });
    const env = (step: { env?: Record<string, string> }, shard?: number) => {
      const e: Record<string, string> = { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary };
      for (const [k, v] of Object.entries({ ...yaml.env, ...(step.env ?? {}) })) e[k] = fill(String(v), shard);
      return cleanEnv(e);
    };
    const bash = (script: string, e: Record<string, string | undefined>) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn('bash', ['-e', '-c', script], { cwd: ROOT, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('exit', (code) => resolve({ code, out }));
      });
    const runSteps = (job: any) => (job.steps as any[]).filter((s) => s.run && s.run !== 'npm ci');
    const created = [
      join(ROOT, 'shards'),
      ...[1, 2, 3].map((i) => join(ROOT, 'reports', `gh-${runId}-1-s${i}of3`)),
      join(ROOT, 'reports', `gh-${runId}-1`),
    ];
    const latest = join(ROOT, 'reports', 'latest');
    const latestBefore = existsSync(latest) ? readlinkSync(latest) : undefined;
    try {
      // The shard job, three times side by side.
      const shards = await Promise.all(
        [1, 2, 3].map(async (shard) => {
          const out: string[] = [];
          for (const step of runSteps(yaml.jobs.shard)) {
            const r = await bash(fill(step.run, shard), env(step, shard));
            out.push(r.out);
            expect(r.code, `shard ${shard}, step "${step.name ?? step.run}":\n${r.out.slice(-2000)}`).toBe(0);
          }
          return out.join('\n');
        }),
      );
      for (const [i, out] of shards.entries())
        expect(out).toMatch(new RegExp(`shard ${i + 1}: exit code 0; the merged report decides the gate`));
      // actions/upload-artifact + actions/download-artifact: each shard's run folder under shards/conformance-shard-<i>/.
      for (const i of [1, 2, 3])
        cpSync(join(ROOT, 'reports', `gh-${runId}-1-s${i}of3`), join(ROOT, 'shards', `conformance-shard-${i}`), {
          recursive: true,
        });
      // The report job.
      for (const step of runSteps(yaml.jobs.report)) {
        const r = await bash(fill(step.run), env(step));
        expect(r.code, `report job, step "${step.name ?? step.run}":\n${r.out.slice(-2000)}`).toBe(0);
      }
      expect(outputs().code).toBe('0');
      expect(readFileSync(summary, 'utf8')).toMatch(new RegExp(`^# Conformance run gh-${runId}-1: PASS`, 'm'));
      expect(existsSync(join(ROOT, 'reports', `gh-${runId}-1`, 'allure-report', 'index.html'))).toBe(true);
    } finally {
      for (const p of created) rmSync(p, { recursive: true, force: true });
      if (latestBefore !== undefined) {
        rmSync(latest, { force: true });
        symlinkSync(latestBefore, latest);
      } else rmSync(latest, { force: true });
    }
  }, 600000);
});
