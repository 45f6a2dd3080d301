/**
 * The README is true: its example output comes from real runs and runs still print it.
 * - the summary of a default run (every service against the embedded reference) has the same
 *   lines, check counts and requirement figures as a run now: checked on the default run of the
 *   "Accept a vendor release" recipe (test/readme-recipes.test.ts), so the suite runs in full once;
 * - every command shown with `$` prints the lines shown after it, as its last lines, with the
 *   exit code the text gives (settings, unknown settings and profile members, arguments);
 * - it cites only what a clone holds (the seed documents in specs/seeds/, never ../shared), every
 *   file and picture it links exists, every setting is in its "Settings" table and in
 *   .env.example, and every README section that code, help texts and docs cite (as in
 *   `README, "Settings"`) is a heading.
 * The failure and known-failures examples are checked against their own runs in
 * test/first-minute.test.ts, the recipes in test/readme-recipes.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERNAL_SETTINGS, knownSettingNames, RUN_SETTINGS } from '../harness/setting-names.js';
import { runCommand } from './support/command.js';
import { README, readmeExample, readmeExamples } from './support/readme.js';

const ROOT = join(import.meta.dirname, '..');
const headings = new Set([...README.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!.trim()));

/** The profile the README's unknown-member example names: a misspelt relationship.verb. */
const TYPO_PROFILE = '{ "relationship": { "verbb": "x" } }';

/** `$ NAME=value ... npm run conformance -- args` → its environment and arguments. */
function parseCommand(line: string): { env: Record<string, string>; args: string[] } {
  const words = line.replace(/^\$ /, '').split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  expect(words.slice(0, 3)).toEqual(['npm', 'run', 'conformance']);
  return { env, args: words.slice(3)[0] === '--' ? words.slice(4) : words.slice(3) };
}

/** Each `$` command of a block with the lines shown after it. */
function commandsOf(block: string): Array<{ line: string; expected: string[] }> {
  const out: Array<{ line: string; expected: string[] }> = [];
  for (const l of block.split('\n')) {
    if (l.startsWith('$ ')) out.push({ line: l, expected: [] });
    else out.at(-1)!.expected.push(l);
  }
  return out;
}

describe('README examples', () => {
  it('has the example blocks the tests check', () => {
    expect([...readmeExamples().keys()].sort()).toEqual([
      'bad-arguments',
      'bad-setting',
      'fail-summary',
      'known-summary',
      'pass-summary',
      'recipe-accept-release',
      'recipe-config-change',
      'unknown-setting',
    ]);
  });

  it.each(['bad-setting', 'unknown-setting', 'bad-arguments'])(
    '"%s": every command prints the lines shown, with the exit code the text gives',
    async (name) => {
      for (const { line, expected } of commandsOf(readmeExample(name))) {
        const { env, args } = parseCommand(line);
        const reportDir = mkdtempSync(join(tmpdir(), 'cf-readme-'));
        const renamed = new Map<string, string>();
        if (env.CONFORMANCE_PROFILE) {
          const file = join(reportDir, env.CONFORMANCE_PROFILE);
          writeFileSync(file, TYPO_PROFILE);
          renamed.set(file, env.CONFORMANCE_PROFILE);
          env.CONFORMANCE_PROFILE = file;
        }
        const r = await runCommand(
          'run/cli/conformance.mjs',
          args,
          { CONFORMANCE_REPORT_DIR: reportDir, ...env },
          240000,
        );
        let printed = `${r.stdout}\n${r.stderr}`;
        for (const [from, to] of renamed) printed = printed.split(from).join(to);
        const lines = printed.split('\n').filter((l) => l.trim());
        expect(
          lines.filter((l) => expected.includes(l)),
          `${line}\n${printed.slice(-2000)}`,
        ).toEqual(expected);
        expect(r.code, line).toBe(/-t /.test(line) ? 1 : 2);
      }
    },
  );
});

describe('README facts', () => {
  it('cites only what a clone holds: the seed documents in specs/seeds/, never ../shared', () => {
    expect(README).not.toMatch(/\.\.\/shared|shared\/seeds/);
    expect(README).toContain('specs/seeds/');
    for (const doc of ['organization-identity-api.md', 'person-provider-identity-api.md'])
      expect(existsSync(join(ROOT, 'specs', 'seeds', doc))).toBe(true);
  });

  it('every file and picture it links exists', () => {
    const links = [...README.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^https?:/.test(l));
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect(existsSync(join(ROOT, link)), link).toBe(true);
  });

  it('lists every setting in "Settings", and every setting a user sets in .env.example', () => {
    expect(headings.has('Settings')).toBe(true);
    const settings = README.slice(README.indexOf('## Settings'), README.indexOf('## What it checks'));
    for (const name of knownSettingNames()) {
      const family = name.replace(/_(TLS_CERT|TLS_KEY|TLS_CA)$/, '_TLS_*');
      expect(settings.includes(name) || settings.includes(family), name).toBe(true);
    }
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    for (const name of RUN_SETTINGS.filter((n) => !INTERNAL_SETTINGS.includes(n) && n !== 'CONFORMANCE_WORKERS'))
      expect(example, name).toContain(name);
  });

  it('every README section that code, help texts and docs cite is a heading of it', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
        d.name === 'node_modules' || d.name === 'reports' || d.name.startsWith('.')
          ? []
          : d.isDirectory()
            ? files(join(dir, d.name))
            : /\.(ts|mjs|md)$/.test(d.name)
              ? [join(dir, d.name)]
              : [],
      );
    const cited = new Set<string>();
    for (const file of [...files('.'), '.env.example'])
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/\bREADME(?:'s)?,? "([^"]+)"/g))
        cited.add(m[1]!.replace(/\s+/g, ' '));
    expect(cited.has('Settings')).toBe(true);
    for (const section of cited) expect(headings.has(section), `section "${section}" of the README`).toBe(true);
  });

  it('states no count that drifts: fault and variant counts come from npm run detection -- --list', () => {
    expect(README).not.toMatch(/\d+ (faults|variants)\b/);
  });
});
