/**
 * examples/ci/: the GitHub Actions workflow and the GitLab CI job parse as YAML, every
 * `npm run <script>` they call exists in package.json, the shard matrix covers 1..n with
 * `--shard=i/n`, secrets come from the CI secret store, the Markdown summary goes to the job
 * summary and the JUnit report is an artifact. The commands themselves run in
 * shard-merge.test.ts (conformance --shard, report:merge) and compare-runs.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';

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
  Object.values(jobs).flatMap((j: any) => [...(j.steps ?? []).map((s: any) => s.run).filter(Boolean), ...(j.script ?? [])]) as string[];

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
