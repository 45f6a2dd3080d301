/**
 * examples/ci/: the GitHub Actions workflow and the GitLab CI job parse as YAML, every
 * `npm run <script>` they call exists in package.json, the shard matrix covers 1..n with
 * `--shard=i/n`, secrets come from the CI secret store, the Markdown summary goes to the job
 * summary and the JUnit report is an artifact. The commands themselves run in
 * shard-merge.test.ts (conformance --shard, report:merge) and compare-runs.test.ts.
 */
import { spawn } from 'node:child_process';
import {
  readdirSync,
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
import { type Artifact, downloadArtifacts, uploadArtifact } from './support/gha-artifacts.js';

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
    // Every service is wired: its URL and sources from the variables, its credentials from the secrets.
    const wired = (name: string, store: 'vars' | 'secrets') =>
      expect(env[name], name).toBe(`$${'{{'} ${store}.${name} }}`);
    for (const p of ['ORG', 'PERSON', 'PROVIDER']) for (const v of ['BASE_URL', 'SOURCES']) wired(`${p}_${v}`, 'vars');
    for (const name of ['PERSON_TOKEN', 'PERSON_USERNAME', 'PERSON_PASSWORD', 'PROVIDER_USERNAME', 'PROVIDER_PASSWORD'])
      wired(name, 'secrets');
    wired('PERSON_CUSTOMER_ID', 'vars');
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
 * The GitHub Actions workflow's own steps, executed as written (each `run:` with bash, its expressions filled in as
 * GitHub would, the actions emulated: the artifacts uploaded and downloaded as upload-artifact@v4 and
 * download-artifact@v4 lay them out, test/support/gha-artifacts.ts, from the steps' own `with:`; the cache empty as on
 * a first run) against a reference given as the deployment of all three services, with only the secrets and the
 * variables set: every step succeeds, the merged report is written and covers the three services, the gate step
 * ends with the merged run's exit code, and the job summary holds its summary.md. The layout a wildcard upload makes
 * (the run folder one level down in its artifact's folder, as the example's upload did before) merges too.
 */
describe('the GitHub Actions workflow, run as written against the reference', () => {
  const ROOT = process.cwd();
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ faults: [] });
  });
  afterAll(() => ref.stop());

  it('succeeds on a first run with only the secrets and variables set, on the artifact layout the actions make', async () => {
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
    const sources = 'cf_test_a,cf_test_b';
    const given: Record<string, string> = {
      'vars.ORG_BASE_URL': ref.baseUrlOf('organization'),
      'vars.ORG_SOURCES': sources,
      'secrets.ORG_TOKEN': ref.token,
      'vars.PERSON_BASE_URL': ref.baseUrlOf('person'),
      'vars.PERSON_SOURCES': sources,
      'vars.PERSON_CUSTOMER_ID': 'reference-customer',
      'secrets.PERSON_TOKEN': ref.token,
      'vars.PROVIDER_BASE_URL': ref.baseUrlOf('provider'),
      'vars.PROVIDER_SOURCES': sources,
      'secrets.PROVIDER_USERNAME': ref.auth.username,
      'secrets.PROVIDER_PASSWORD': ref.auth.password,
    };
    const fill = (text: string, shard?: number): string =>
      text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
        const value: Record<string, string> = {
          ...given,
          'matrix.shard': String(shard),
          'github.run_id': runId,
          'github.run_attempt': '1',
          'env.CONFORMANCE_RUN_ID': `gh-${runId}-1`,
        };
        if (expr in value) return value[expr]!;
        // A variable or secret the repository does not set is the empty string.
        if (/^(vars|secrets)\.[A-Z_]+$/.test(expr)) return '';
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
    const withOf = (job: any, action: string) => (job.steps as any[]).find((s) => s.uses?.startsWith(action))!.with;
    const created = [
      join(ROOT, 'shards'),
      ...[1, 2, 3].map((i) => join(ROOT, 'reports', `gh-${runId}-1-s${i}of3`)),
      join(ROOT, 'reports', `gh-${runId}-1`),
    ];
    const latest = join(ROOT, 'reports', 'latest');
    const latestBefore = existsSync(latest) ? readlinkSync(latest) : undefined;
    try {
      // The shard job, three times side by side, each uploading its artifact as its step says.
      const artifacts: Artifact[] = [];
      const shards = await Promise.all(
        [1, 2, 3].map(async (shard) => {
          const out: string[] = [];
          for (const step of runSteps(yaml.jobs.shard)) {
            const r = await bash(fill(step.run, shard), env(step, shard));
            out.push(r.out);
            expect(r.code, `shard ${shard}, step "${step.name ?? step.run}":\n${r.out.slice(-2000)}`).toBe(0);
          }
          const upload = withOf(yaml.jobs.shard, 'actions/upload-artifact');
          artifacts.push(uploadArtifact({ name: fill(upload.name, shard), path: fill(upload.path, shard) }, ROOT));
          return out.join('\n');
        }),
      );
      for (const [i, out] of shards.entries())
        expect(out).toMatch(new RegExp(`shard ${i + 1}: exit code 0; the merged report decides the gate`));
      // The report job: the artifacts downloaded as its step says (each into a folder of its own), then its steps.
      downloadArtifacts(artifacts, withOf(yaml.jobs.report, 'actions/download-artifact'), ROOT);
      expect(readdirSync(join(ROOT, 'shards')).sort()).toEqual([1, 2, 3].map((i) => `conformance-shard-${i}`));
      for (const step of runSteps(yaml.jobs.report)) {
        const r = await bash(fill(step.run), env(step));
        expect(r.code, `report job, step "${step.name ?? step.run}":\n${r.out.slice(-2000)}`).toBe(0);
      }
      expect(outputs().code).toBe('0');
      expect(readFileSync(summary, 'utf8')).toMatch(new RegExp(`^# Conformance run gh-${runId}-1: PASS`, 'm'));
      expect(existsSync(join(ROOT, 'reports', `gh-${runId}-1`, 'allure-report', 'index.html'))).toBe(true);
      const merged = JSON.parse(readFileSync(join(ROOT, 'reports', `gh-${runId}-1`, 'summary.json'), 'utf8'));
      expect(merged.run.targets.map((t: { service: string; status: string }) => `${t.service} ${t.status}`)).toEqual([
        'organization configured',
        'person configured',
        'provider configured',
      ]);
      // A wildcard upload (the search path reports/ as the artifact's root) leaves each run folder one level down.
      rmSync(join(ROOT, 'shards'), { recursive: true, force: true });
      const wildcard = [1, 2, 3].map((i) =>
        uploadArtifact({ name: `conformance-shard-${i}`, path: `reports/gh-*-s${i}of3/` }, ROOT),
      );
      downloadArtifacts(wildcard, { pattern: 'conformance-shard-*', path: 'shards' }, ROOT);
      expect(existsSync(join(ROOT, 'shards', 'conformance-shard-1', `gh-${runId}-1-s1of3`, 'run.json'))).toBe(true);
      const again = await bash(
        `npm run report:merge -- --out ${work} --run-id gh-${runId}-again shards/*/`,
        cleanEnv({}),
      );
      expect(again.code, again.out.slice(-2000)).toBe(0);
      expect(again.out).toMatch(new RegExp(`Conformance run gh-${runId}-again \\(seed \\d+\\): PASS`));
    } finally {
      for (const p of created) rmSync(p, { recursive: true, force: true });
      if (latestBefore !== undefined) {
        rmSync(latest, { force: true });
        symlinkSync(latestBefore, latest);
      } else rmSync(latest, { force: true });
    }
  }, 900000);
});
