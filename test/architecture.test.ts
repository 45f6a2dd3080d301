/**
 * The import rules of the layout (.dependency-cruiser.cjs, drawn in docs/architecture.md): no
 * folder imports one its rule does not allow, no import circles, no orphan modules. The rules are
 * also shown to bite: a planted violation in a scratch tree is reported.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const BIN = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const FOLDERS = [
  'specs',
  'generators',
  'harness',
  'scenarios',
  'reference',
  'report',
  'run',
  'detection',
  'linkage',
  'bench',
  'test',
];

const cruise = (cwd: string, paths: string[]) =>
  spawnSync(process.execPath, [BIN, '--config', CONFIG, '--output-type', 'err', ...paths], { cwd, encoding: 'utf8' });

describe('import rules', () => {
  it('the project keeps every import rule: allowed folders only, no circles, no orphans', () => {
    const r = cruise(ROOT, [...FOLDERS, 'vitest.config.ts', 'vitest.self.config.ts']);
    expect(r.stdout + r.stderr).toMatch(/no dependency violations found/);
    expect(r.status).toBe(0);
  }, 120000);

  it('a planted violation (reference importing harness) and a planted circle are reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-arch-'));
    for (const f of ['reference', 'harness', 'specs']) mkdirSync(join(dir, f));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
    );
    writeFileSync(join(dir, 'harness', 'client.ts'), 'export const client = 1;\n');
    writeFileSync(
      join(dir, 'reference', 'server.ts'),
      "import { client } from '../harness/client.js';\nexport const server = client;\n",
    );
    writeFileSync(join(dir, 'specs', 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'specs', 'b.ts'), "import { a } from './a.js';\nexport const b = () => a;\n");
    const r = cruise(dir, ['reference', 'harness', 'specs']);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/reference-imports: reference\/server\.ts → harness\/client\.ts/);
    expect(r.stdout).toMatch(/no-circular/);
  }, 120000);

  it('inside scenarios/shared, the rules and the walk engine importing each other, and a state judgement importing either, are reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cf-arch-'));
    const shared = join(dir, 'scenarios', 'shared');
    for (const f of ['rules', 'walk', 'state']) mkdirSync(join(shared, f), { recursive: true });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
    );
    writeFileSync(
      join(shared, 'walk', 'engine.ts'),
      "import { rule } from '../rules/rule.js';\nexport const engine = () => rule;\n",
    );
    writeFileSync(
      join(shared, 'rules', 'rule.ts'),
      "import { steer } from '../walk/steer.js';\nexport const rule = () => steer;\n",
    );
    writeFileSync(join(shared, 'walk', 'steer.ts'), 'export const steer = 1;\n');
    writeFileSync(
      join(shared, 'state', 'clause.ts'),
      "import { steer } from '../walk/steer.js';\nexport const clause = steer;\n",
    );
    const r = cruise(dir, ['scenarios']);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(
      /walks-judge-apart: scenarios\/shared\/walk\/engine\.ts → scenarios\/shared\/rules\/rule\.ts/,
    );
    expect(r.stdout).toMatch(
      /rules-reach-walks-through-scripts: scenarios\/shared\/rules\/rule\.ts → scenarios\/shared\/walk\/steer\.ts/,
    );
    expect(r.stdout).toMatch(
      /state-judges-without-walking: scenarios\/shared\/state\/clause\.ts → scenarios\/shared\/walk\/steer\.ts/,
    );
  }, 120000);
});

describe('docs/architecture.md', () => {
  it('draws exactly the folder rules of .dependency-cruiser.cjs', async () => {
    const { readFileSync } = await import('node:fs');
    const { createRequire } = await import('node:module');
    const rules = createRequire(import.meta.url)(CONFIG) as {
      forbidden: Array<{ name: string; from: { path?: string }; to: { pathNot?: string[] } }>;
    };
    const fromRules = rules.forbidden
      .filter((r) => r.name.endsWith('-imports'))
      .flatMap((r) => {
        const from = r.name.replace(/-imports$/, '');
        return (r.to.pathNot ?? [])
          .map((p) => p.replace(/^\^/, '').split(/[(/\\]/)[0]!)
          .filter((to) => to !== from)
          .map((to) => `${from} --> ${to}`);
      })
      .sort();
    const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const drawn = [...doc.matchAll(/^ {2}(\w+) --> (\w+)$/gm)].map((m) => `${m[1]} --> ${m[2]}`).sort();
    expect(drawn).toEqual(fromRules);
  });
});
